package studio

import "net/http"

func (s *Server) handleOperations(w http.ResponseWriter, r *http.Request) {}
func (s *Server) handleReport(w http.ResponseWriter, r *http.Request)     {}
func (s *Server) handleAction(w http.ResponseWriter, r *http.Request)     {}
