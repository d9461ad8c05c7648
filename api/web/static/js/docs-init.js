// /docs: Swagger UI over the server's own OpenAPI document. A file rather than an inline
// script, so the page's Content-Security-Policy needs no 'unsafe-inline'.
"use strict";

const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.openapiUrl,
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
