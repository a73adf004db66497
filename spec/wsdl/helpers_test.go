package wsdl_test

import "encoding/xml"

func xmlName(space, local string) xml.Name { return xml.Name{Space: space, Local: local} }
