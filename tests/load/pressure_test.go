package load

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestParsePressure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		some, full int64
		bad        bool
	}{
		{name: "io", text: "some avg10=0.08 avg60=8.91 avg300=21.62 total=16587367724\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=675870263\n",
			some: 16587367724, full: 675870263},
		{name: "cpu before full was kept", text: "some avg10=1.00 avg60=2.00 avg300=3.00 total=42\n", some: 42},
		{name: "no total", text: "some avg10=1.00\n", bad: true},
		{name: "no some", text: "full avg10=0.00 total=7\n", bad: true},
		{name: "not a number", text: "some total=x\n", bad: true},
		{name: "empty", text: "", bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			some, full, err := parsePressure(tc.text)
			if tc.bad {
				if err == nil {
					t.Fatalf("parsePressure(%q) = %d, %d; want an error", tc.text, some, full)
				}
				return
			}
			if err != nil || some != tc.some || full != tc.full {
				t.Fatalf("parsePressure = %d, %d, %v; want %d, %d", some, full, err, tc.some, tc.full)
			}
		})
	}
}

func TestPressureRecorderBooksSeconds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(cpu, io, ioFull int64) {
		t.Helper()
		for name, body := range map[string]string{
			"cpu": "some avg10=0 total=" + strconv.FormatInt(cpu, 10) + "\nfull avg10=0 total=0\n",
			"io":  "some avg10=0 total=" + strconv.FormatInt(io, 10) + "\nfull avg10=0 total=" + strconv.FormatInt(ioFull, 10) + "\n",
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(1_000_000, 0, 0)
	r := &PressureRecorder{dir: dir, seconds: map[int64]Pressure{}}
	t0 := time.Unix(1_763_790_000, 0)
	prev, err := r.sample()
	if err != nil {
		t.Fatal(err)
	}
	prev.at = t0
	write(1_300_000, 480_000, 450_000) // 300 ms of CPU and 480 ms of I/O stalls
	cur, err := r.sample()
	if err != nil {
		t.Fatal(err)
	}
	cur.at = t0.Add(2 * time.Second)
	r.add(prev, cur)

	if _, ok := r.Worst(t0, t0.Add(time.Second)); ok {
		t.Fatal("seconds without a sample reported")
	}
	got, ok := r.Worst(t0, t0.Add(3*time.Second))
	want := Pressure{CPUSomeMS: 300, IOSomeMS: 480, IOFullMS: 450}
	if !ok || got != want {
		t.Fatalf("Worst = %+v, %v; want %+v", got, ok, want)
	}
	var none *PressureRecorder // a bench on a kernel without pressure information
	if _, ok := none.Worst(t0, t0.Add(3*time.Second)); ok {
		t.Fatal("a nil recorder reported pressure")
	}
	if _, err := StartPressure(t.Context(), filepath.Join(dir, "missing")); err == nil {
		t.Fatal("StartPressure without pressure files: no error")
	}
}
