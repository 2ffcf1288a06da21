/// <reference types="vitest/config" />
// Vite builds the portal into dist/app (git-ignored); embed.go serves it
// from the Go binary and falls back to the committed dist/index.html
// placeholder when no build is present. `npm run dev` serves the portal
// with hot reload and proxies /api to a Ferry started by `make run`.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

const api = process.env.FERRY_API ?? 'http://127.0.0.1:8088'

// apiDocs emits the API reference page's scripts (/docs/api, served by the
// Go server with its own CSP) beside the portal: Redoc's standalone
// bundle from npm and the page's init script. They are files of their
// own, so the portal's bundle does not carry Redoc. The bundle's one
// outside resource, the attribution's logo image, becomes a data: URI:
// the page loads nothing from another origin (and its CSP would refuse it).
const redocLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
const localLogo =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231d4ed8'/%3E%3C/svg%3E"

function apiDocs(): Plugin {
  const require = createRequire(import.meta.url)
  return {
    name: 'ferry-api-docs',
    apply: 'build',
    generateBundle() {
      const redoc = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8')
      if (!redoc.includes(redocLogo)) this.error(`redoc.standalone.js no longer names ${redocLogo}: check what it loads from outside`)
      if (/https:\/\/cdn\./.test(redoc.replaceAll(redocLogo, ''))) this.error('redoc.standalone.js loads something else from a CDN')
      this.emitFile({ type: 'asset', fileName: 'docs/redoc.standalone.js', source: redoc.replaceAll(redocLogo, localLogo) })
      this.emitFile({ type: 'asset', fileName: 'docs/init.js', source: readFileSync(new URL('./apidocs/init.js', import.meta.url)) })
    },
  }
}

export default defineConfig({
  plugins: [react(), apiDocs()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/healthz': api,
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
