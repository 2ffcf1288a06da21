/*
 * embed.js: Ferry's customer portal in the tenant's own page.
 *
 *   <div id="webhooks"></div>
 *   <script src="https://ferry.example/embed.js"></script>
 *   <script>
 *     FerryPortal.mount(document.getElementById("webhooks"), {
 *       // called at first and whenever the session ends: ask your backend for a new URL
 *       getUrl: () => fetch("/my-backend/ferry-portal-session", {method: "POST"}).then(r => r.json()).then(j => j.url),
 *     })
 *   </script>
 *
 * In React (load this script once, e.g. with a <script> tag in index.html):
 *
 *   function Webhooks() {
 *     const ref = useRef(null)
 *     useEffect(() => {
 *       const portal = window.FerryPortal.mount(ref.current, {
 *         getUrl: () => fetch('/my-backend/ferry-portal-session', { method: 'POST' })
 *           .then((r) => r.json()).then((j) => j.url),
 *       })
 *       return () => portal.unmount()
 *     }, [])
 *     return <div ref={ref} />
 *   }
 *
 * mount(element, options) puts an iframe in element and loads the URL
 * getUrl() resolves to (the `url` of POST /customers/{uid}/portal-sessions,
 * minted by your backend with its API key; never mint it in the browser).
 * It adds this page's origin to the URL's query (?origin=…, before the
 * #code= fragment), so the portal posts its messages to this origin only,
 * even after the frame was reloaded. It listens to messages from the portal's
 * origin (taken from the URL) and from that iframe only: "ferry:height"
 * resizes the iframe to its content; "ferry:session-ended" asks getUrl()
 * for a new URL and loads it (sessions that end soon after they started
 * come back more slowly each time, up to a minute, so a failing backend
 * cannot make the frame reload in a loop).
 *
 * options: getUrl (required), title (the iframe's accessible name,
 * "Webhooks"), minHeight (pixels before the first height message, 400),
 * onError(err) (getUrl failed or gave no http(s) URL; default: console.error).
 * mount returns {iframe, reload(), unmount()}.
 */
(function () {
  'use strict'
  if (window.FerryPortal) return

  var QUICK_END_MS = 30000
  var MAX_BACKOFF_MS = 60000
  var MAX_HEIGHT = 100000

  /** originOf returns an http(s) URL's origin, or null. */
  function originOf(url) {
    try {
      var u = new URL(url, window.location.href)
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null
    } catch (e) {
      return null
    }
  }

  /**
   * withOrigin adds origin=<this page's origin> to the URL's query, before
   * its fragment (code=…), which stays last. The portal removes the fragment
   * at once but keeps the query, so after a reload of the frame it still
   * knows whom to tell that it needs a new session.
   */
  function withOrigin(url) {
    var u = new URL(url, window.location.href)
    u.searchParams.set('origin', window.location.origin)
    return u.href
  }

  function mount(element, options) {
    if (!element || typeof element.appendChild !== 'function') throw new TypeError('FerryPortal.mount: element must be a DOM element')
    if (!options || typeof options.getUrl !== 'function') throw new TypeError('FerryPortal.mount: options.getUrl must be a function returning a Promise of the portal URL')
    var onError = typeof options.onError === 'function' ? options.onError : function (err) { console.error('FerryPortal:', err) }

    var iframe = document.createElement('iframe')
    iframe.title = options.title || 'Webhooks'
    iframe.setAttribute('allow', 'clipboard-write')
    iframe.style.display = 'block'
    iframe.style.width = '100%'
    iframe.style.border = '0'
    iframe.style.height = (Number(options.minHeight) > 0 ? Number(options.minHeight) : 400) + 'px'
    element.appendChild(iframe)

    var frameOrigin = null
    var unmounted = false
    var loading = false
    var loadedAt = 0
    var quickEnds = 0
    var timer = null

    function onMessage(event) {
      if (unmounted || frameOrigin === null) return
      // Only the portal in this iframe: its exact origin, and its window.
      if (event.origin !== frameOrigin || event.source !== iframe.contentWindow) return
      var data = event.data
      if (!data || typeof data !== 'object') return
      if (data.type === 'ferry:height') {
        var h = data.height
        if (typeof h === 'number' && isFinite(h) && h >= 0) iframe.style.height = Math.ceil(Math.min(h, MAX_HEIGHT)) + 'px'
      } else if (data.type === 'ferry:session-ended') {
        renew()
      }
    }

    function load() {
      if (unmounted || loading) return
      loading = true
      Promise.resolve()
        .then(function () { return options.getUrl() })
        .then(function (url) {
          if (unmounted) return
          var origin = typeof url === 'string' ? originOf(url) : null
          if (!origin) throw new Error('getUrl must resolve to the portal session URL (http or https), got ' + String(url))
          frameOrigin = origin
          loadedAt = Date.now()
          iframe.src = withOrigin(url)
        })
        .catch(onError)
        .then(function () { loading = false })
    }

    /** renew loads a new session, after a growing pause when sessions keep ending at once. */
    function renew() {
      if (timer !== null) return
      quickEnds = Date.now() - loadedAt < QUICK_END_MS ? quickEnds + 1 : 0
      var wait = quickEnds === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 1000 * Math.pow(2, quickEnds - 1))
      timer = setTimeout(function () {
        timer = null
        load()
      }, wait)
    }

    window.addEventListener('message', onMessage)
    load()
    return {
      iframe: iframe,
      reload: load,
      unmount: function () {
        unmounted = true
        if (timer !== null) clearTimeout(timer)
        window.removeEventListener('message', onMessage)
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe)
      },
    }
  }

  window.FerryPortal = { mount: mount, version: 1 }
})()
