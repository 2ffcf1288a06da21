package sandbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/ferry-dev/ferry/delivery/routing"
)

// maxFrame bounds one message either way: a request carries at most a
// 64 KiB source and an event of 256 KiB twice (data and envelope, base64
// and JSON-escaped), a response at most a 1 MiB payload.
const maxFrame = 16 << 20

// Operations a worker serves.
const (
	opRun   = "run"
	opCheck = "check"
)

// request is one run or check, parent to worker.
type request struct {
	Op      string           `json:"op"`
	Source  routing.Source   `json:"source"`
	Webhook *routing.Webhook `json:"webhook,omitempty"`
}

// response is a worker's answer: a result, or an error of one of the
// routing.Err* kinds (errKinds).
type response struct {
	Result  routing.TransformResult `json:"result"`
	ErrKind string                  `json:"err_kind,omitempty"`
	ErrMsg  string                  `json:"err_msg,omitempty"`
	// CPU is the CPU time the worker has used since it started, so the
	// pool can retire it before RLIMIT_CPU kills it mid-run.
	CPU time.Duration `json:"cpu"`
}

// hello is a worker's first frame: it is ready to serve.
type hello struct {
	Ready bool `json:"ready"`
	PID   int  `json:"pid"`
}

// errKinds names the routing.Err* sentinels on the wire.
var errKinds = map[string]error{
	"invalid": routing.ErrInvalidTransformation,
	"failed":  routing.ErrTransformFailed,
	"timeout": routing.ErrTransformTimeout,
	"memory":  routing.ErrTransformMemory,
}

// kindName is the wire name of err's kind ("failed" for any other error).
func kindName(err error) string {
	for name, kind := range errKinds {
		if err == kind {
			return name
		}
	}
	return "failed"
}

// writeFrame writes v as one frame and flushes w.
func writeFrame(w *bufio.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	if len(b) > maxFrame {
		return fmt.Errorf("frame of %d bytes is over the %d-byte limit", len(b), maxFrame)
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := w.Write(n[:]); err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	return nil
}

// readFrame reads one frame into v. io.EOF means the other side closed
// its end between frames.
func readFrame(r *bufio.Reader, v any) error {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > maxFrame {
		return fmt.Errorf("frame of %d bytes is over the %d-byte limit", size, maxFrame)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return fmt.Errorf("read frame: %w", io.ErrUnexpectedEOF)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode frame: %w", err)
	}
	return nil
}
