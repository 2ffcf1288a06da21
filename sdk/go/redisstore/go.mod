module github.com/ferry-dev/ferry/sdk/go/redisstore

go 1.26.0

require (
	github.com/ferry-dev/ferry/sdk/go v0.0.0-00010101000000-000000000000
	github.com/redis/go-redis/v9 v9.23.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

// Local development: the verifier module next door. Published versions
// resolve github.com/ferry-dev/ferry/sdk/go from its sdk/go/vX.Y.Z tag.
replace github.com/ferry-dev/ferry/sdk/go => ../
