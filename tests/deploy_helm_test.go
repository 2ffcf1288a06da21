package tests

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/ferry-dev/ferry/app"
)

// secretVars hold credentials or keys: the chart must take each from a
// Secret (secretKeyRef), never from a plain value.
var secretVars = []string{
	"FERRY_DATABASE_URL", "FERRY_MASTER_KEY", "FERRY_OTHER_MASTER_KEYS", "FERRY_JWT_SECRET", "FERRY_SMTP_URL",
	"FERRY_KAFKA_SASL_USERNAME", "FERRY_KAFKA_SASL_PASSWORD",
}

// k8sObject is the part of a rendered manifest the checks read.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name        string            `yaml:"name"`
		Annotations map[string]string `yaml:"annotations"`
	} `yaml:"metadata"`
	Spec struct {
		Replicas *int `yaml:"replicas"`
		Template struct {
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
		Ports []struct {
			Name       string `yaml:"name"`
			TargetPort string `yaml:"targetPort"`
		} `yaml:"ports"`
		Endpoints []struct {
			Port string `yaml:"port"`
		} `yaml:"endpoints"`
		ScaleTargetRef struct {
			Name string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
	} `yaml:"spec"`
}

type podSpec struct {
	SecurityContext struct {
		RunAsNonRoot *bool `yaml:"runAsNonRoot"`
		RunAsUser    *int  `yaml:"runAsUser"`
	} `yaml:"securityContext"`
	AutomountServiceAccountToken *bool  `yaml:"automountServiceAccountToken"`
	RestartPolicy                string `yaml:"restartPolicy"`
	Volumes                      []struct {
		Name   string `yaml:"name"`
		Secret *struct {
			SecretName string `yaml:"secretName"`
		} `yaml:"secret"`
	} `yaml:"volumes"`
	Containers []container `yaml:"containers"`
}

type container struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Env   []struct {
		Name      string  `yaml:"name"`
		Value     *string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
	StartupProbe   *probe `yaml:"startupProbe"`
	Resources      struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	SecurityContext struct {
		AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
		ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
		Capabilities             struct {
			Drop []string `yaml:"drop"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
}

// helmBinary is the helm `make helm-check` installed (FERRY_TEST_HELM,
// which `make test` sets). Under CI it must be there; elsewhere the test
// is skipped without it, with the command that installs it.
func helmBinary(t *testing.T) string {
	t.Helper()
	const how = "run `make helm-check` (builds helm into .ferry/bin) and set FERRY_TEST_HELM=$PWD/.ferry/bin/helm, as `make test` does"
	bin := os.Getenv("FERRY_TEST_HELM")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("FERRY_TEST_HELM is not set: " + how)
		}
		t.Skip("FERRY_TEST_HELM is not set: " + how)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("helm at FERRY_TEST_HELM: %v; %s", err, how)
	}
	return bin
}

// render runs helm template on the chart and decodes every object.
func render(t *testing.T, helm string, args ...string) map[string]k8sObject {
	t.Helper()
	cmd := exec.Command(helm, append([]string{"template", "ferry", "../deploy/helm/ferry"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "helm template: %s", stderr.String())
	objects := map[string]k8sObject{}
	dec := yaml.NewDecoder(bytes.NewReader(out))
	for {
		var o k8sObject
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if o.Kind == "" {
			continue
		}
		key := o.Kind + "/" + o.Metadata.Name
		require.NotContains(t, objects, key, "rendered twice")
		objects[key] = o
	}
	return objects
}

// TestHelmChart renders deploy/helm/ferry with the example values and
// checks what a cluster would run: images, commands, probes on routes
// Ferry serves, non-root read-only containers, secrets only by reference,
// a configuration Ferry accepts, and the migration as a hook.
func TestHelmChart(t *testing.T) {
	t.Parallel()
	helm := helmBinary(t)
	objects := render(t, helm, "-f", "../deploy/helm/ferry/values-example.yaml")
	known := ferryVariables(t)
	caFile := selfSignedCA(t)

	pods := map[string]string{ // object → the role its args name
		"Deployment/ferry-api":    "api",
		"Deployment/ferry-worker": "worker",
		"Job/ferry-migrate":       "migrate",
	}
	for key, role := range pods {
		o, ok := objects[key]
		require.True(t, ok, "%s is rendered", key)
		pod := o.Spec.Template.Spec
		require.True(t, *pod.SecurityContext.RunAsNonRoot, "%s runs as non-root", key)
		require.NotZero(t, *pod.SecurityContext.RunAsUser, "%s has a non-root uid", key)
		require.False(t, *pod.AutomountServiceAccountToken, "%s mounts no API token", key)
		require.Len(t, pod.Containers, 1)
		c := pod.Containers[0]
		require.Equal(t, "registry.example.com/ferry:1.0.0", c.Image, key)
		require.False(t, *c.SecurityContext.AllowPrivilegeEscalation, key)
		require.True(t, *c.SecurityContext.ReadOnlyRootFilesystem, key)
		require.Equal(t, []string{"ALL"}, c.SecurityContext.Capabilities.Drop, key)
		require.NotEmpty(t, c.Resources.Requests["memory"], "%s requests memory", key)
		require.NotEmpty(t, c.Resources.Limits["memory"], "%s limits memory", key)
		require.True(t, slices.ContainsFunc(c.VolumeMounts, func(m struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		}) bool {
			return m.MountPath == "/tmp"
		}), "%s has a writable /tmp", key)

		env := map[string]string{}
		for _, e := range c.Env {
			require.True(t, known[e.Name], "%s sets %s, which Ferry does not read", key, e.Name)
			if slices.Contains(secretVars, e.Name) {
				require.Nil(t, e.Value, "%s: %s holds a secret and must come from a secretKeyRef", key, e.Name)
				require.NotNil(t, e.ValueFrom, "%s: %s", key, e.Name)
				require.NotNil(t, e.ValueFrom.SecretKeyRef, "%s: %s from a secretKeyRef", key, e.Name)
				require.NotEmpty(t, e.ValueFrom.SecretKeyRef.Name)
				require.NotEmpty(t, e.ValueFrom.SecretKeyRef.Key)
				env[e.Name] = placeholderSecret(e.Name)
				continue
			}
			require.NotNil(t, e.Value, "%s: %s has a value", key, e.Name)
			env[e.Name] = *e.Value
		}
		for _, s := range secretVars {
			require.Contains(t, env, s, "%s: the example values configure %s", key, s)
		}
		if role != "migrate" {
			require.Equal(t, []string{"serve", "--roles", role}, c.Args, key)
		} else {
			require.Equal(t, []string{"migrate"}, c.Args, key)
		}
		// Ferry reads the CA file while loading its configuration: hand it
		// a real one in place of the mounted Secret.
		_, err := app.ConfigFromEnv(func(k string) string {
			if k == "FERRY_KAFKA_TLS_CA_FILE" {
				return caFile
			}
			return env[k]
		})
		require.NoError(t, err, "%s's environment is a configuration Ferry accepts", key)
		require.Equal(t, "production", env["FERRY_ENV"])

		// The Kafka CA is mounted where FERRY_KAFKA_TLS_CA_FILE points.
		ca := env["FERRY_KAFKA_TLS_CA_FILE"]
		require.NotEmpty(t, ca)
		require.True(t, slices.ContainsFunc(c.VolumeMounts, func(m struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		}) bool {
			return m.MountPath == path.Dir(ca)
		}), "%s mounts the Kafka CA at %s", key, path.Dir(ca))

		port := func(name string) string {
			for _, p := range c.Ports {
				if p.Name == name {
					return ":" + strconv.Itoa(p.ContainerPort)
				}
			}
			return ""
		}
		switch role {
		case "api":
			require.Equal(t, env["FERRY_HTTP_ADDR"], port("http"))
			require.Equal(t, env["FERRY_METRICS_ADDR"], port("metrics"))
			requireHTTPProbe(t, c.LivenessProbe, "/healthz", "http")
			requireHTTPProbe(t, c.ReadinessProbe, "/readyz", "http")
			requireHTTPProbe(t, c.StartupProbe, "/healthz", "http")
		case "worker":
			// A worker serves no API routes: its one listener, for
			// metrics, answers its probes too.
			require.Empty(t, port("http"))
			require.Equal(t, env["FERRY_METRICS_ADDR"], port("metrics"))
			requireHTTPProbe(t, c.LivenessProbe, "/healthz", "metrics")
			requireHTTPProbe(t, c.ReadinessProbe, "/readyz", "metrics")
			requireHTTPProbe(t, c.StartupProbe, "/healthz", "metrics")
		case "migrate":
			require.Equal(t, "Never", pod.RestartPolicy)
			require.Nil(t, c.LivenessProbe)
		}
	}

	job := objects["Job/ferry-migrate"]
	hooks := strings.Split(job.Metadata.Annotations["helm.sh/hook"], ",")
	require.ElementsMatch(t, []string{"pre-install", "pre-upgrade"}, hooks, "the migration is a Helm hook")
	require.Contains(t, job.Metadata.Annotations["helm.sh/hook-delete-policy"], "before-hook-creation")

	require.Nil(t, objects["Deployment/ferry-api"].Spec.Replicas, "the HPA owns the api's replica count")
	require.Equal(t, "ferry-api", objects["HorizontalPodAutoscaler/ferry-api"].Spec.ScaleTargetRef.Name)
	require.Contains(t, objects, "PodDisruptionBudget/ferry-api")
	require.Contains(t, objects, "PodDisruptionBudget/ferry-worker")
	require.Contains(t, objects, "Ingress/ferry")
	sm := objects["ServiceMonitor/ferry"]
	require.Len(t, sm.Spec.Endpoints, 1)
	require.Equal(t, "metrics", sm.Spec.Endpoints[0].Port)
	for _, svc := range []string{"Service/ferry-api", "Service/ferry-worker"} {
		require.True(t, slices.ContainsFunc(objects[svc].Spec.Ports, func(p struct {
			Name       string `yaml:"name"`
			TargetPort string `yaml:"targetPort"`
		}) bool {
			return p.Name == "metrics" && p.TargetPort == "metrics"
		}), "%s exposes the metrics port the ServiceMonitor scrapes", svc)
	}
}

// TestHelmChartDefaults: with only what has no default, the chart renders
// no optional objects and asks for no optional secret.
func TestHelmChartDefaults(t *testing.T) {
	t.Parallel()
	helm := helmBinary(t)
	objects := render(t, helm, "--set", "config.publicURL=https://ferry.example.com", "--set", "kafka.brokers=kafka:9092")
	for _, kind := range []string{"Ingress", "ServiceMonitor", "HorizontalPodAutoscaler"} {
		for key := range objects {
			require.False(t, strings.HasPrefix(key, kind+"/"), "%s is off by default", key)
		}
	}
	api := objects["Deployment/ferry-api"].Spec.Template.Spec.Containers[0]
	for _, e := range api.Env {
		require.NotContains(t, []string{"FERRY_SMTP_URL", "FERRY_OTHER_MASTER_KEYS", "FERRY_KAFKA_SASL_PASSWORD", "FERRY_KAFKA_TLS_CA_FILE"}, e.Name)
	}

	cmd := exec.Command(helm, "template", "ferry", "../deploy/helm/ferry")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the chart refuses to render without a public URL and brokers")
	require.Contains(t, string(out), "config.publicURL")
}

func requireHTTPProbe(t *testing.T, p *probe, path, port string) {
	t.Helper()
	require.NotNil(t, p, "probe on %s", path)
	require.NotNil(t, p.HTTPGet, "an HTTP probe on %s", path)
	require.Equal(t, path, p.HTTPGet.Path)
	require.Equal(t, port, p.HTTPGet.Port)
}

// placeholderSecret stands in for a secret's value when the rendered
// environment is fed to app.ConfigFromEnv.
func placeholderSecret(name string) string {
	switch name {
	case "FERRY_MASTER_KEY":
		return strings.Repeat("ab", 32)
	case "FERRY_OTHER_MASTER_KEYS":
		return strings.Repeat("cd", 32)
	case "FERRY_JWT_SECRET":
		return strings.Repeat("s", 48)
	case "FERRY_DATABASE_URL":
		return "postgres://ferry:secret@db:5432/ferry?sslmode=verify-full"
	case "FERRY_SMTP_URL":
		return "smtp://user:secret@smtp.example.com:587"
	}
	return "secret"
}

// selfSignedCA writes a PEM certificate for FERRY_KAFKA_TLS_CA_FILE.
func selfSignedCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kafka test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	f := path.Join(t.TempDir(), "ca.crt")
	require.NoError(t, os.WriteFile(f, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	return f
}
