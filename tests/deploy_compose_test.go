package tests

import (
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/ferry-dev/ferry/app"
)

// composeFile is the part of the Compose specification deploy/compose.yaml uses.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Volumes  map[string]any            `yaml:"volumes"`
}

type composeService struct {
	Image       string                       `yaml:"image"`
	Command     []string                     `yaml:"command"`
	Environment map[string]string            `yaml:"environment"`
	DependsOn   map[string]map[string]string `yaml:"depends_on"`
	Healthcheck *struct {
		Test        []string `yaml:"test"`
		Interval    string   `yaml:"interval"`
		Timeout     string   `yaml:"timeout"`
		Retries     int      `yaml:"retries"`
		StartPeriod string   `yaml:"start_period"`
	} `yaml:"healthcheck"`
	Ports   []string `yaml:"ports"`
	Volumes []string `yaml:"volumes"`
	Restart string   `yaml:"restart"`
}

// TestComposeFile checks deploy/compose.yaml, which cannot run here (no
// Docker engine): Ferry's services set only variables Ferry reads, their
// configuration loads, and the services name each other consistently.
func TestComposeFile(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../deploy/compose.yaml")
	require.NoError(t, err)
	// Merged (<<: *ferry) into plain maps first: the top-level name and
	// the x-ferry anchor are not part of composeFile.
	var raw map[string]any
	require.NoError(t, yaml.Unmarshal(b, &raw))
	delete(raw, "x-ferry")
	delete(raw, "name")
	merged, err := yaml.Marshal(raw)
	require.NoError(t, err)
	var c composeFile
	dec := yaml.NewDecoder(strings.NewReader(string(merged)))
	dec.KnownFields(true) // a misspelt key fails here, not at `docker compose up`
	require.NoError(t, dec.Decode(&c))

	known := ferryVariables(t)
	wantCommands := map[string][]string{
		"migrate": {"migrate"},
		"api":     {"serve", "--roles", "api"},
		"worker":  {"serve", "--roles", "worker"},
	}
	for name, want := range wantCommands {
		s, ok := c.Services[name]
		require.True(t, ok, "service %s", name)
		require.Equal(t, "ferry:local", withDefaults(s.Image), "%s runs the Ferry image", name)
		require.Equal(t, want, s.Command, "%s's command", name)
		env := func(k string) string {
			if k == "FERRY_ROLES" && len(s.Command) == 3 {
				return s.Command[2] // serve --roles overrides FERRY_ROLES
			}
			return s.Environment[k]
		}
		for k := range s.Environment {
			require.True(t, known[k], "%s sets %s, which Ferry does not read (docs/configuration.md, app/config.go)", name, k)
		}
		_, err := app.ConfigFromEnv(env)
		require.NoError(t, err, "%s's environment is a valid configuration", name)
		checkConnections(t, c, name, s.Environment)
	}
	require.Equal(t, "service_completed_successfully", c.Services["api"].DependsOn["migrate"]["condition"])
	require.Equal(t, "service_completed_successfully", c.Services["worker"].DependsOn["migrate"]["condition"])
	require.Equal(t, "no", c.Services["migrate"].Restart, "the migration runs once")

	for name, s := range c.Services {
		for dep, cond := range s.DependsOn {
			d, ok := c.Services[dep]
			require.True(t, ok, "%s depends on %s, which is not a service", name, dep)
			if cond["condition"] == "service_healthy" {
				require.NotNil(t, d.Healthcheck, "%s waits for %s to be healthy, which has no healthcheck", name, dep)
			}
		}
		if name != "migrate" {
			require.NotNil(t, s.Healthcheck, "%s has a healthcheck", name)
		}
		for _, v := range s.Volumes {
			vol, _, _ := strings.Cut(v, ":")
			require.Contains(t, c.Volumes, vol, "%s's volume %s is declared", name, vol)
		}
		for _, p := range s.Ports {
			require.True(t, strings.HasPrefix(p, "127.0.0.1:"), "%s publishes %s on loopback only", name, p)
		}
	}
	// Ferry's healthchecks run the image's binary (it has no shell): the
	// api's checks /readyz on FERRY_HTTP_ADDR, the worker's /readyz on its metrics port.
	require.Equal(t, []string{"CMD", "ferry", "healthcheck"}, c.Services["api"].Healthcheck.Test)
	_, metricsPort, err := net.SplitHostPort(c.Services["worker"].Environment["FERRY_METRICS_ADDR"])
	require.NoError(t, err)
	require.Equal(t, []string{"CMD", "ferry", "healthcheck", "http://127.0.0.1:" + metricsPort + "/readyz"},
		c.Services["worker"].Healthcheck.Test)
	_, port, err := net.SplitHostPort(c.Services["api"].Environment["FERRY_HTTP_ADDR"])
	require.NoError(t, err)
	require.Contains(t, c.Services["api"].Ports, "127.0.0.1:"+port+":"+port, "the API's listen port is published")
}

// checkConnections: the database, brokers and mail server a Ferry service
// names are services of the file, reached on the ports they serve.
func checkConnections(t *testing.T, c composeFile, name string, env map[string]string) {
	t.Helper()
	db, err := url.Parse(env["FERRY_DATABASE_URL"])
	require.NoError(t, err)
	pg := c.Services[db.Hostname()]
	require.NotEmpty(t, pg.Image, "%s's database host %s is a service", name, db.Hostname())
	require.Equal(t, "5432", db.Port())
	pass, _ := db.User.Password()
	require.Equal(t, pg.Environment["POSTGRES_USER"], db.User.Username())
	require.Equal(t, pg.Environment["POSTGRES_PASSWORD"], pass)
	require.Equal(t, "/"+pg.Environment["POSTGRES_DB"], db.Path)
	require.Contains(t, c.Services[name].DependsOn, db.Hostname())

	for _, broker := range strings.Split(env["FERRY_KAFKA_BROKERS"], ",") {
		host, _, err := net.SplitHostPort(broker)
		require.NoError(t, err)
		k, ok := c.Services[host]
		require.True(t, ok, "%s's broker %s is a service", name, broker)
		require.True(t, slices.Contains(strings.Split(k.Environment["KAFKA_ADVERTISED_LISTENERS"], ","), "PLAINTEXT://"+broker),
			"the broker advertises %s", broker)
	}
	if smtp := env["FERRY_SMTP_URL"]; smtp != "" {
		u, err := url.Parse(smtp)
		require.NoError(t, err)
		require.Contains(t, c.Services, u.Hostname(), "%s's mail server is a service", name)
		require.Equal(t, "1025", u.Port(), "mailpit's SMTP port")
		require.Equal(t, "none", u.Query().Get("tls"), "mailpit speaks plain SMTP; tls=none is the default only on loopback")
	}
}
