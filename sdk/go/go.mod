module github.com/ferry-dev/ferry/sdk/go

go 1.22
