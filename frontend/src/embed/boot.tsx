// boot.tsx starts the embedded customer portal (main.tsx calls it for
// /embed/{session_id}): the launch was read (and the fragment removed)
// before anything else ran; here the client and the channel to the host
// page are made once, outside React, so the session ends, and the host is
// told, exactly once.
import { StrictMode } from 'react'
import type { Root } from 'react-dom/client'
import { PortalClient } from './client'
import { EmbedApp } from './EmbedApp'
import type { Launch } from './launch'
import { parentChannel } from './parent'

export function bootEmbed(root: Root, launch: Launch, win: Window = window): PortalClient {
  const client = new PortalClient(launch.sessionId)
  const channel = parentChannel(win, launch.parentOrigin)
  client.onEnded(() => channel.post({ type: 'ferry:session-ended' }))
  root.render(
    <StrictMode>
      <EmbedApp client={client} channel={channel} code={launch.code} />
    </StrictMode>,
  )
  return client
}
