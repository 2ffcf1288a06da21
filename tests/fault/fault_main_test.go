// Package fault holds Ferry's fault-injection tests: a real `ferry serve`
// subprocess killed with SIGKILL, Kafka killed and restarted, PostgreSQL
// stopped, two replicas sharing the consumer group. They run against a
// PRIVATE PostgreSQL and Kafka that TestMain starts with
// scripts/services.sh in a temporary state directory on free ports (the
// shared services of `make test` are never touched), and removes at the end.
package fault

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// env is the private world every fault test runs in.
var env struct {
	repo     string
	ferryBin string
	stateDir string
	svcEnv   []string
	pgPort   int
	kPort    int
	adminURL string
	brokers  string
}

func TestMain(m *testing.M) {
	code, err := setupAndRun(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fault tests:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func setupAndRun(m *testing.M) (int, error) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		return 0, err
	}
	env.repo = repo
	tmp, err := os.MkdirTemp("", "ferry-fault-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	env.ferryBin = filepath.Join(tmp, "ferry")
	build := exec.Command("go", "build", "-o", env.ferryBin, "./app/cmd/ferry")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("build ferry: %v\n%s", err, out)
	}

	// The state directory must be named .ferry for `services.sh clean`.
	env.stateDir = filepath.Join(tmp, ".ferry")
	ports := freePorts(3)
	env.pgPort, env.kPort = ports[0], ports[1]
	env.svcEnv = append(os.Environ(),
		"FERRY_STATE_DIR="+env.stateDir,
		"FERRY_PG_PORT="+strconv.Itoa(ports[0]),
		"FERRY_KAFKA_PORT="+strconv.Itoa(ports[1]),
		"FERRY_KAFKA_CONTROLLER_PORT="+strconv.Itoa(ports[2]),
		"FERRY_KAFKA_HEAP_OPTS=-Xms128m -Xmx384m",
	)
	if libs := kafkaLibs(repo); libs != "" {
		env.svcEnv = append(env.svcEnv, "FERRY_KAFKA_LIBS="+libs)
	}
	defer func() {
		if out, err := services("clean"); err != nil {
			fmt.Fprintf(os.Stderr, "fault tests: cleaning private services: %v\n%s", err, out)
		}
	}()
	if out, err := services("start"); err != nil {
		return 0, fmt.Errorf("start private services: %v\n%s", err, out)
	}
	env.adminURL = fmt.Sprintf("postgres://ferry@127.0.0.1:%d/ferry?sslmode=disable", env.pgPort)
	env.brokers = fmt.Sprintf("127.0.0.1:%d", env.kPort)
	return m.Run(), nil
}

// kafkaLibs finds already downloaded Kafka jars so the private broker
// needs no Maven run: FERRY_KAFKA_LIBS, this checkout's .ferry, or the
// main worktree's .ferry. "" lets services.sh fetch them.
func kafkaLibs(repo string) string {
	cands := []string{os.Getenv("FERRY_KAFKA_LIBS"), filepath.Join(repo, ".ferry/kafka/libs")}
	if out, err := exec.Command("git", "-C", repo, "rev-parse", "--path-format=absolute", "--git-common-dir").Output(); err == nil {
		cands = append(cands, filepath.Join(filepath.Dir(strings.TrimSpace(string(out))), ".ferry/kafka/libs"))
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(c, ".version")); err == nil {
			return c
		}
	}
	return ""
}

// services runs scripts/services.sh on the private state directory.
func services(args ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{filepath.Join(env.repo, "scripts/services.sh")}, args...)...)
	cmd.Env = env.svcEnv
	cmd.Dir = env.repo
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustServices(t *testing.T, args ...string) {
	t.Helper()
	start := time.Now()
	out, err := services(args...)
	if err != nil {
		t.Fatalf("services.sh %v: %v\n%s", args, err, out)
	}
	t.Logf("services.sh %v (%s): %s", args, time.Since(start).Round(time.Millisecond), strings.TrimSpace(out))
}

// killKafka sends SIGKILL to the private broker and waits until it is gone.
func killKafka(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(env.stateDir, "kafka/kafka.pid"))
	if err != nil {
		t.Fatalf("read kafka pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("kafka pid %q: %v", b, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9 kafka %d: %v", pid, err)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return !alive(pid) }, "kafka %d did not die", pid)
}

// alive reports whether pid runs and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && len(s) > i+2 {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

func freePorts(n int) []int {
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// world is one test's database, topic prefix and consumer group on the
// private services.
type world struct {
	dbURL  string
	prefix string
	group  string
}

func newWorld(t *testing.T) world {
	t.Helper()
	admin, err := sql.Open("pgx", env.adminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := testenv.Name("fault_")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	return world{
		dbURL:  fmt.Sprintf("postgres://ferry@127.0.0.1:%d/%s?sslmode=disable", env.pgPort, name),
		prefix: testenv.Name("f") + ".",
		group:  testenv.Name("g"),
	}
}

// proc is one `ferry serve` subprocess.
type proc struct {
	t    *testing.T
	w    world
	name string
	env  []string
	addr string
	cmd  *exec.Cmd
	done chan struct{}
	log  string
}

// URL is the process's base URL.
func (p *proc) URL() string { return "http://" + p.addr }

// startFerry starts `ferry serve` for w and waits until /readyz answers.
// version names the process in the User-Agent of its attempts.
func startFerry(t *testing.T, w world, version string, extra ...string) *proc {
	t.Helper()
	p := &proc{t: t, w: w, name: version, addr: fmt.Sprintf("127.0.0.1:%d", freePorts(1)[0])}
	p.env = append(os.Environ(),
		"FERRY_ENV=dev",
		"FERRY_HTTP_ADDR="+p.addr,
		"FERRY_DATABASE_URL="+w.dbURL,
		"FERRY_DB_MAX_CONNS=20",
		"FERRY_KAFKA_BROKERS="+env.brokers,
		"FERRY_KAFKA_TOPIC_PREFIX="+w.prefix,
		"FERRY_KAFKA_GROUP="+w.group,
		"FERRY_KAFKA_PARTITIONS=4",
		"FERRY_RETRY_SCALE=0.01",
		"FERRY_OUTBOX_SWEEP_AFTER=2s",
		"FERRY_API_RATE_LIMIT=1000000",
		"FERRY_SHUTDOWN_GRACE=5s",
		"FERRY_LOG_LEVEL=warn",
		"FERRY_VERSION="+version,
	)
	p.env = append(p.env, extra...)
	p.log = filepath.Join(t.TempDir(), "ferry-"+version+".log")
	p.start()
	t.Cleanup(p.stop)
	return p
}

func (p *proc) start() {
	t := p.t
	t.Helper()
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(env.ferryBin, "serve")
	p.cmd.Env = p.env
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start ferry %s: %v", p.name, err)
	}
	p.done = make(chan struct{})
	go func() {
		_ = p.cmd.Wait()
		f.Close()
		close(p.done)
	}()
	testenv.Eventually(t, 90*time.Second, func() bool {
		res, err := http.Get(p.URL() + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return true
			}
		}
		select {
		case <-p.done:
			t.Fatalf("ferry %s exited during start-up:\n%s", p.name, p.tail(40))
		default:
		}
		return false
	}, "ferry %s not ready", p.name)
}

// kill9 sends SIGKILL and waits for the process to be gone.
func (p *proc) kill9() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// restart starts the process again with the same address and settings.
func (p *proc) restart() { p.start() }

// stop ends the process gracefully (SIGTERM, then SIGKILL after 30 s).
func (p *proc) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.t.Logf("ferry %s ignored SIGTERM for 30s; killing it", p.name)
		p.kill9()
	}
	if p.t.Failed() {
		p.t.Logf("ferry %s log tail:\n%s", p.name, p.tail(60))
	}
}

func (p *proc) tail(n int) string {
	f, err := os.Open(p.log)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}
