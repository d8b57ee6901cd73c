// The API reference: Scalar (bundled, served by this process) renders the live OpenAPI document. Fonts, telemetry and
// any outside call are off; the page's policy would refuse them anyway. A signed-in token is handed to the
// reference's "try it" client, in memory only.
const token = sessionStorage.getItem('juralite.token');
window.Scalar.createApiReference('#api-reference', {
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  hideClientButton: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  ...(token ? { authentication: { preferredSecurityScheme: 'bearer', securitySchemes: { bearer: { token } } } } : {}),
});
