// Swagger UI over /openapi.json: a file of its own, so the page's Content-Security-Policy needs no inline script.
"use strict";

window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: "StandaloneLayout",
  deepLinking: true,
  validatorUrl: null,
});
