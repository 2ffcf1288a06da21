package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/ferry-dev/ferry/app"
)

// resealCmd moves every stored secret to FERRY_MASTER_KEY, opening those
// sealed before with FERRY_OTHER_MASTER_KEYS: the last step of a
// master-key rotation (docs/operations.md, Rotating secrets).
func resealCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error {
		cfg, err := app.DBConfigFromEnv(e.getenv)
		if err != nil {
			return err
		}
		if err := app.MasterKeysFromEnv(e.getenv, &cfg); err != nil {
			return err
		}
		db, closeDB, err := openMigratedDB(ctx, cfg)
		if err != nil {
			return err
		}
		defer closeDB()
		done, err := app.Reseal(ctx, db, cfg)
		unopened := 0
		for _, r := range done {
			fmt.Fprintf(e.stdout, "%-28s %6d resealed", r.What, r.Resealed)
			if r.Unopened > 0 {
				fmt.Fprintf(e.stdout, ", %d opened with none of the keys (left as they were)", r.Unopened)
			}
			fmt.Fprintln(e.stdout)
			unopened += r.Unopened
		}
		if err != nil {
			return err
		}
		if unopened > 0 {
			return fmt.Errorf("%d stored secrets open with neither FERRY_MASTER_KEY nor FERRY_OTHER_MASTER_KEYS: "+
				"add the key they were sealed with to FERRY_OTHER_MASTER_KEYS and run ferry reseal again", unopened)
		}
		fmt.Fprintln(e.stdout, "every stored secret is sealed with FERRY_MASTER_KEY; FERRY_OTHER_MASTER_KEYS can be removed")
		return nil
	}
}
