module weft.dev/weft

go 1.21

// weft-serve's gRPC API (cmd/weft-serve/grpc*.go, internal/inferpb) uses
// Debian 12's gRPC-Go and protobuf-go, vendored from /usr/share/gocode/src by
// scripts/go_vendor.sh (Note [Vendoring Debian's gRPC] there): the versions
// are Debian's, and nothing is downloaded.
require (
	github.com/golang/protobuf v1.5.2 // indirect
	golang.org/x/net v0.7.0 // indirect
	golang.org/x/sys v0.3.0 // indirect
	golang.org/x/text v0.7.0 // indirect
	google.golang.org/genproto v0.0.0-20200413115906-b5235f65be36 // indirect
	google.golang.org/grpc v1.33.3
	google.golang.org/protobuf v1.28.1
)
