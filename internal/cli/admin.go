package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/store"
)

const adminHelp = `Marks an account as an administrator of a Muster server, or no longer, in
the server's database (the --db that muster serve uses; it may be running):

  muster admin grant USERNAME      the account may read the reports (/reports)
                                   and mute or ban players
  muster admin revoke USERNAME
  muster admin list                the administrators
  muster admin ban USERNAME        the account can no longer play, challenge
                                   or chat; unban lifts it
  muster admin mute USERNAME       the account can no longer chat; unmute
                                   lifts it

Administrators are made only here, never through the web, so that taking an
account on the site never gives its powers.`

func runAdmin(env *Env, args []string) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	db := fs.String("db", "muster.db", "SQLite database file, or a PostgreSQL address (postgres://…)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || (pos[0] == "list") != (len(pos) == 1) || len(pos) > 2 {
		return fmt.Errorf("%w: muster admin grant|revoke|ban|unban|mute|unmute USERNAME, or muster admin list", errUsage)
	}
	st, err := store.Open(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx := context.Background()
	switch pos[0] {
	case "list":
		names, err := st.Admins(ctx)
		if err != nil {
			return err
		}
		for _, n := range names {
			fmt.Fprintln(env.Stdout, n)
		}
		if len(names) == 0 {
			fmt.Fprintln(env.Stdout, "no administrator")
		}
		return nil
	case "grant", "revoke":
		err := st.SetAdmin(ctx, auth.UsernameKey(pos[1]), pos[0] == "grant")
		if errors.Is(err, store.ErrNoPlayer) {
			return fmt.Errorf("no account is called %q", pos[1])
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s: %s is %s administrator\n", pos[0], pos[1], map[bool]string{true: "now an", false: "no longer an"}[pos[0] == "grant"])
		return nil
	case "ban", "unban", "mute", "unmute":
		p, err := st.PlayerNamed(ctx, auth.UsernameKey(pos[1]))
		if errors.Is(err, store.ErrNoPlayer) {
			return fmt.Errorf("no account is called %q", pos[1])
		} else if err != nil {
			return err
		}
		on := pos[0] == "ban" || pos[0] == "mute"
		if pos[0] == "ban" || pos[0] == "unban" {
			err = st.SetBanned(ctx, p.ID, on)
		} else {
			err = st.SetMuted(ctx, p.ID, on)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s: done for %s\n", pos[0], p.Username)
		return nil
	}
	return fmt.Errorf("%w: unknown admin command %q (known: grant, revoke, ban, unban, mute, unmute, list)", errUsage, pos[0])
}
