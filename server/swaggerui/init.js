// Starts Swagger UI on the lint server's own description. Everything is
// served by the lint server: no CDN, and no external validator.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "api-docs/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
