/// <reference types="vitest/config" />
// Vite builds the portal into dist/app (git-ignored); embed.go serves it
// from the Go binary and falls back to the committed dist/index.html
// placeholder when no build is present. `npm run dev` serves the portal
// with hot reload and proxies /api to a Ferry started by `make run`.
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

const api = process.env.FERRY_API ?? 'http://127.0.0.1:8088'

export default defineConfig({
  plugins: [react()],
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
