// The API reference page (/docs/api, app/httpapi/apidocs.go): Redoc
// renders the tenant API's OpenAPI document.
// Redoc's standalone bundle defines window.Redoc.
window.Redoc.init('/api/v1/openapi.json', {
  hideDownloadButton: false,
  expandResponses: '200,201,202',
  theme: {
    // System fonts only: the page loads nothing from outside.
    typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' }, code: { fontFamily: 'ui-monospace, monospace' } },
    colors: { primary: { main: '#1d4ed8' } },
  },
}, document.getElementById('redoc'))
