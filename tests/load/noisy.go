package load

import (
	"context"
	"fmt"
	"time"
)

// NoisyScenario is the noisy-neighbour reference case: a victim tenant
// sends a slow trickle of events to one healthy endpoint, first alone,
// then while a noisy tenant's endpoints, all at a tarpit that never
// answers until released, hold a large burst of deliveries. It reports
// the victim's latency both ways, then releases the tarpit and closes
// every ledger (nothing of either tenant may be missing).
type NoisyScenario struct {
	Name string `json:"name"`
	// NoisyEndpoints each get every noisy event (max_in_flight 1,
	// timeout NoisyTimeout seconds, all at /hook/tarpit-i).
	NoisyEndpoints int   `json:"noisy_endpoints"`
	NoisyEvents    int64 `json:"noisy_events"`
	NoisyTimeout   int   `json:"noisy_timeout_s"`
	// The victim sends one event every VictimGap for VictimDuration.
	VictimGap      time.Duration `json:"victim_gap"`
	VictimDuration time.Duration `json:"victim_duration"`
	// VictimWait is how long after its last send the victim's ledger may
	// take to close while the tarpit still holds (its latency is measured
	// from the final ledger, after the release, either way).
	VictimWait time.Duration `json:"victim_wait"`
	// Settle bounds the drain after the release.
	Settle time.Duration `json:"settle"`
}

// RunNoisy runs sc and returns three outcomes: the victim alone, the
// victim beside the noisy tenant, and the noisy tenant's own ledger.
func (b *Bench) RunNoisy(ctx context.Context, sc NoisyScenario) []Outcome {
	victimPlan := Plan{Rate: float64(time.Second) / float64(sc.VictimGap), Duration: sc.VictimDuration, Concurrency: 4}
	alone := b.runVictim(ctx, sc.Name+"/victim-alone", victimPlan, sc.VictimWait+sc.Settle)
	b.logf("  %s: victim alone p50 %.1fms p99 %.1fms", sc.Name, alone.Report.Latency.P50, alone.Report.Latency.P99)

	noisy := Outcome{Scenario: Scenario{Name: sc.Name + "/noisy", MaxInFlight: 1, Settle: sc.Settle,
		Plan: Plan{Concurrency: 16, Events: sc.NoisyEvents}}}
	victim := Outcome{Scenario: Scenario{Name: sc.Name + "/victim", OK: 1, Plan: victimPlan, Settle: sc.VictimWait}}
	fail := func(err error) []Outcome {
		noisy.Error = err.Error()
		return []Outcome{alone, victim, noisy}
	}
	nt, err := Setup(ctx, b.FerryURL, fmt.Sprintf("bench-noisy-%d@example.com", time.Now().UnixNano()), 16, b.FerryDB)
	if err != nil {
		return fail(err)
	}
	var tarpits []string
	for i := 0; i < sc.NoisyEndpoints; i++ {
		name := fmt.Sprintf("%s-%d", KindTarpit, i)
		if _, err := nt.CreateEndpoint(ctx, EndpointSpec{URL: b.SinkURL + "/hook/" + name, MaxInFlight: 1, TimeoutSeconds: sc.NoisyTimeout}); err != nil {
			return fail(err)
		}
		tarpits = append(tarpits, name)
	}
	m := b.startMeasuring(ctx, true)

	// The burst: as fast as Ferry takes it.
	nplan := noisy.Scenario.Plan
	nplan.Run = fmt.Sprintf("%s-noisy-%d", sc.Name, time.Now().UnixNano())
	nplan.Duration = 10 * time.Minute // bounded by Events
	nres := Generate(ctx, nt, nplan, Hooks{})
	src := RemoteSink{URL: b.SinkURL}
	// Wait until every tarpit endpoint holds a request, so the victim
	// starts while the noisy deliveries are in the dispatcher.
	deadline := time.Now().Add(60 * time.Second)
	held := 0
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if l, err := src.Fetch(ctx, nplan.Run); err == nil {
			held = l.Held
		}
		if held >= sc.NoisyEndpoints {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.logf("  %s: noisy tenant sent %d events (%d deliveries) in %.1fs; tarpit holds %d", sc.Name, len(nres.Sent),
		len(nres.Sent)*sc.NoisyEndpoints, nres.End.Sub(nres.Start).Seconds(), held)

	// The victim, beside the noisy tenant.
	vres, vRoute, err := b.sendVictim(ctx, victim.Scenario.Name, victimPlan)
	if err != nil {
		noisy.Ferry = m.stop()
		return fail(err)
	}
	vEnd := time.Now()
	var vrep Report
	for {
		seen, err := src.Fetch(ctx, vres.Plan.Run)
		if err == nil {
			vrep = CloseRouted(victim.Scenario.Name, vres, seen, vRoute, time.Since(vEnd))
		}
		if (err == nil && vrep.Missing == 0) || time.Since(vEnd) > sc.VictimWait || ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	beforeRelease := vrep.Delivered

	// Release the tarpit; both ledgers must close.
	released := time.Now()
	if err := src.ReleaseRun(ctx, nplan.Run); err != nil {
		noisy.Error = err.Error()
	}
	nRoute := func(int64) []string { return tarpits }
	var nrep Report
	for {
		nseen, nerr := src.Fetch(ctx, nplan.Run)
		vseen, verr := src.Fetch(ctx, vres.Plan.Run)
		if nerr == nil {
			nrep = CloseRouted(noisy.Scenario.Name, nres, nseen, nRoute, time.Since(released))
		}
		if verr == nil {
			vrep = CloseRouted(victim.Scenario.Name, vres, vseen, vRoute, time.Since(vEnd))
		}
		if (nerr == nil && verr == nil && nrep.Missing == 0 && vrep.Missing == 0) || time.Since(released) > sc.Settle || ctx.Err() != nil {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	noisy.Ferry = m.stop()
	// The tarpit holds every noisy delivery until the release by design:
	// those waits are the scenario, not stalls.
	nrep.Stalls = nil
	noisy.Report, victim.Report, victim.Ferry = nrep, vrep, noisy.Ferry
	noisy.Stages = b.stages(ctx, m)
	noisy.Statements = b.statements(ctx)
	noisy.Note = fmt.Sprintf("%d endpoints (max_in_flight 1, timeout %d s) at a tarpit; drain measured from the release", sc.NoisyEndpoints, sc.NoisyTimeout)
	ratio := 0.0
	if alone.Report.Latency.P99 > 0 {
		ratio = vrep.Latency.P99 / alone.Report.Latency.P99
	}
	victim.Note = fmt.Sprintf("%d of %d arrived before the tarpit was released; p99 %.1f ms vs %.1f ms alone (%.1f×)",
		beforeRelease, vrep.Expected, vrep.Latency.P99, alone.Report.Latency.P99, ratio)
	return []Outcome{alone, victim, noisy}
}

// runVictim runs the victim's trickle alone and closes its ledger.
func (b *Bench) runVictim(ctx context.Context, name string, plan Plan, settle time.Duration) Outcome {
	out := Outcome{Scenario: Scenario{Name: name, OK: 1, Plan: plan, Settle: settle}}
	m := b.startMeasuring(ctx, true)
	res, route, err := b.sendVictim(ctx, name, plan)
	if err != nil {
		out.Ferry = m.stop()
		out.Error = err.Error()
		return out
	}
	end := time.Now()
	src := RemoteSink{URL: b.SinkURL}
	for {
		seen, err := src.Fetch(ctx, res.Plan.Run)
		if err != nil {
			out.Error = err.Error()
		} else {
			out.Report = CloseRouted(name, res, seen, route, time.Since(end))
		}
		if (err == nil && out.Report.Missing == 0) || time.Since(end) > settle || ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	out.Ferry = m.stop()
	out.Stages = b.stages(ctx, m)
	out.Statements = b.statements(ctx)
	return out
}

// sendVictim signs up a fresh victim tenant with one healthy endpoint and
// sends its plan.
func (b *Bench) sendVictim(ctx context.Context, name string, plan Plan) (Result, func(int64) []string, error) {
	vt, err := Setup(ctx, b.FerryURL, fmt.Sprintf("bench-victim-%d@example.com", time.Now().UnixNano()), 4, b.FerryDB)
	if err != nil {
		return Result{}, nil, err
	}
	ep := KindOK + "-0"
	if _, err := vt.CreateEndpoint(ctx, EndpointSpec{URL: b.SinkURL + "/hook/" + ep, TimeoutSeconds: 10}); err != nil {
		return Result{}, nil, err
	}
	plan.Run = fmt.Sprintf("%s-%d", name, time.Now().UnixNano())
	res := Generate(ctx, vt, plan, Hooks{})
	return res, func(int64) []string { return []string{ep} }, nil
}

func (b *Bench) logf(format string, args ...any) {
	if b.Log != nil {
		b.Log(format, args...)
	}
}
