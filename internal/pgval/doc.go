// Package pgval turns Go values into what PostgreSQL parameters and text
// columns accept, for delivery's hand-written SQL on hot paths, and
// decides how those statements are planned (Replan, OpenLookups) and
// opens the pools they run on (Open).
package pgval
