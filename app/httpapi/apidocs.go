package httpapi

import (
	"io/fs"

	"github.com/gofiber/fiber/v2"
)

// The API reference page, /docs/api: Redoc (bundled from npm into the
// portal's build as docs/redoc.standalone.js, with docs/init.js) renders
// GET /api/v1/openapi.json. Nothing is loaded from outside: system fonts,
// same-origin scripts.
//
// Redoc styles itself with styled-components and style-loader, which
// inject <style> elements; the portal's CSP (style-src 'self') refuses
// them. Redoc's nonce option covers only some of them (its bundle's own
// style-loader and styled-components' first sheet take no nonce from
// outside), so this page alone allows style-src 'unsafe-inline'. Scripts
// stay 'self' only, so an injected style can restyle the page but not
// run code, and the page shows only the public document (no secrets to
// exfiltrate with CSS). Redoc's search index runs in a Web Worker made
// from a blob: URL, so the page also allows worker-src blob:.

// apiReferencePath is where the page is served.
const apiReferencePath = "/docs/api"

// apiReferenceCSP is the page's Content-Security-Policy.
const apiReferenceCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; worker-src blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// apiReferencePage is the page's HTML.
const apiReferencePage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Ferry API reference</title>
    <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231d4ed8'/%3E%3Cpath d='M3 10h10l-2 3H5z' fill='white'/%3E%3C/svg%3E" />
  </head>
  <body>
    <div id="redoc"></div>
    <noscript>The API reference needs JavaScript; the document itself is at /api/v1/openapi.json.</noscript>
    <script src="/docs/redoc.standalone.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`

// apiReference serves the page with its CSP, or a plain 404 when
// the binary was built without the portal.
func (s *server) apiReference(c *fiber.Ctx) error {
	if _, err := fs.Stat(s.Portal, "docs/redoc.standalone.js"); err != nil {
		return c.Status(fiber.StatusNotFound).SendString("the API reference is not built into this binary (bash scripts/frontend.sh build); " +
			"the document is at /api/v1/openapi.json")
	}
	c.Set(fiber.HeaderContentSecurityPolicy, apiReferenceCSP)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.SendString(apiReferencePage)
}
