import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { bootEmbed } from './embed/boot'
import { isEmbedPath, readLaunch } from './embed/launch'
import './styles.css'

const root = createRoot(document.getElementById('root')!)
// /embed/{session_id} is the customer portal a tenant embeds (embed.js):
// the same index.html, another app. readLaunch takes the single-use code
// out of the address before anything else runs.
if (isEmbedPath(window.location.pathname)) {
  bootEmbed(root, readLaunch(window))
} else {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
