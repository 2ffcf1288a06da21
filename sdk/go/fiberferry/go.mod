module github.com/ferry-dev/ferry/sdk/go/fiberferry

go 1.22

require (
	github.com/ferry-dev/ferry/sdk/go v0.0.0-00010101000000-000000000000
	github.com/gofiber/fiber/v2 v2.52.15
)

require (
	github.com/andybalholm/brotli v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/mattn/go-runewidth v0.0.16 // indirect
	github.com/rivo/uniseg v0.2.0 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	github.com/valyala/fasthttp v1.51.0 // indirect
	github.com/valyala/tcplisten v1.0.0 // indirect
	golang.org/x/sys v0.28.0 // indirect
)

// Local development: the verifier module next door. Published versions
// resolve github.com/ferry-dev/ferry/sdk/go from its sdk/go/vX.Y.Z tag.
replace github.com/ferry-dev/ferry/sdk/go => ../
