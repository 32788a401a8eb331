package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/bus"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

const adminHelp = `Marks an account as an administrator of a Muster server, or no longer, in
the server's database (the --db that muster serve uses; it may be running):

  muster admin create USERNAME [--admin] [--password-file FILE]
                                   make an account, its password read from
                                   FILE or standard input (its first line);
                                   --admin makes it an administrator too,
                                   as a new site's first
  muster admin grant USERNAME      the account may read the reports (/reports)
                                   and mute or ban players
  muster admin revoke USERNAME
  muster admin list                the administrators
  muster admin ban USERNAME        the account can no longer play, challenge
                                   or chat; unban lifts it
  muster admin mute USERNAME       the account can no longer chat; unmute
                                   lifts it
  muster admin abort GAME          call a game in play off, without a result
                                   (GAME is its id, as in /g/GAME)
  muster admin rename USERNAME NEW the account's new username, everywhere it
                                   is shown
  muster admin delete USERNAME     delete an account: its games are kept with
                                   its name blanked; it can no longer sign in,
                                   its seats' secrets no longer act, its games
                                   in play end (resigned, or aborted before
                                   both sides have moved) and nobody may take
                                   its username again
  muster admin addresses [--since 24h]
                                   the addresses that made the most games,
                                   accounts and challenges lately

A server running on the database sees an abort at once where servers share
PostgreSQL (they are told), and otherwise at the game's next change (its
players are then told the game is over) or when it next loads the game; an
administrator on the site aborts a game at once, its players told, with POST
/api/admin/games/GAME/abort.

Administrators are made only here, never through the web, so that taking an
account on the site never gives its powers.`

func runAdmin(env *Env, args []string) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	db := fs.String("db", "muster.db", "SQLite database file, or a PostgreSQL address (postgres://…)")
	since := fs.Duration("since", 24*time.Hour, "with addresses: how far back to look")
	asAdmin := fs.Bool("admin", false, "with create: make the account an administrator too")
	passwordFile := fs.String("password-file", "", "with create: read the password from this file's first line, not from standard input (never the command line, which others on the machine may read)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if err := fromEnv(env, fs, nil); err != nil {
		return err
	}
	words := 2
	if len(pos) > 0 {
		switch pos[0] {
		case "list", "addresses":
			words = 1
		case "rename":
			words = 3
		}
	}
	if len(pos) != words {
		return fmt.Errorf("%w: muster admin create|grant|revoke|ban|unban|mute|unmute|abort|delete NAME, rename NAME NEW, list, or addresses", errUsage)
	}
	var password string
	if pos[0] == "create" {
		// Checked before the database is opened, as the web's register
		// checks them.
		if err := auth.CheckUsername(pos[1]); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if password, err = readPassword(env, *passwordFile); err != nil {
			return err
		}
		if err := auth.CheckNewPassword(password); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
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
	case "create":
		hash, err := auth.HashPassword(password)
		if err != nil {
			return err
		}
		p := &store.Player{ID: token.ID(), Address: "muster admin"}
		if err := st.CreatePlayer(ctx, p); err != nil {
			return err
		}
		switch err := st.Register(ctx, p.ID, pos[1], auth.UsernameKey(pos[1]), hash); {
		case errors.Is(err, store.ErrNameTaken):
			return fmt.Errorf("the username %q is taken", pos[1])
		case err != nil:
			return err
		}
		what := "an account"
		if *asAdmin {
			if err := st.SetAdmin(ctx, auth.UsernameKey(pos[1]), true); err != nil {
				return err
			}
			what = "an administrator's account"
		}
		fmt.Fprintf(env.Stdout, "create: %s is %s; sign in with it on the site\n", pos[1], what)
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
	case "abort":
		switch err := st.AbortGame(ctx, pos[1], "aborted by the operator"); {
		case errors.Is(err, store.ErrNotFound):
			return fmt.Errorf("no game %q", pos[1])
		case errors.Is(err, store.ErrConflict):
			return fmt.Errorf("the game %s is over already", pos[1])
		case err != nil:
			return err
		}
		if err := bus.Tell(ctx, st, bus.Game, pos[1]); err != nil {
			fmt.Fprintf(env.Stderr, "muster admin: the servers were not told (they see it at the game's next change): %v\n", err)
		}
		fmt.Fprintf(env.Stdout, "abort: the game %s is called off\n", pos[1])
		return nil
	case "rename":
		if err := auth.CheckUsername(pos[2]); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		switch err := st.RenameAccount(ctx, auth.UsernameKey(pos[1]), pos[2], auth.UsernameKey(pos[2])); {
		case errors.Is(err, store.ErrNoPlayer):
			return fmt.Errorf("no account is called %q", pos[1])
		case errors.Is(err, store.ErrNameTaken):
			return fmt.Errorf("the username %q is taken", pos[2])
		case err != nil:
			return err
		}
		fmt.Fprintf(env.Stdout, "rename: %s is now %s\n", pos[1], pos[2])
		return nil
	case "delete":
		playing, err := st.DeleteAccount(ctx, auth.UsernameKey(pos[1]))
		switch {
		case errors.Is(err, store.ErrNoPlayer):
			return fmt.Errorf("no account is called %q", pos[1])
		case err != nil:
			return err
		}
		for _, id := range playing {
			if err := bus.Tell(ctx, st, bus.Game, id); err != nil {
				fmt.Fprintf(env.Stderr, "muster admin: the servers were not told (they see it within a minute): %v\n", err)
				break
			}
		}
		fmt.Fprintf(env.Stdout, "delete: the account %s is gone; its games are kept without its name, and the name is held\n", pos[1])
		if len(playing) > 0 {
			fmt.Fprintf(env.Stdout, "delete: its %d games in play end, resigned (aborted before both sides have moved), as the server running them sees it, within seconds\n", len(playing))
		}
		return nil
	case "addresses":
		busy, err := st.BusiestAddresses(ctx, time.Now().Add(-*since), 20)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%-40s %6s %9s %11s   (since %s ago)\n", "address", "games", "accounts", "challenges", *since)
		for _, a := range busy {
			fmt.Fprintf(env.Stdout, "%-40s %6d %9d %11d\n", a.Address, a.Games, a.Accounts, a.Challenges)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown admin command %q (known: create, grant, revoke, ban, unban, mute, unmute, abort, rename, delete, list, addresses)", errUsage, pos[0])
}

// readPassword reads a password from the first line of file, or of
// standard input where file is "".
func readPassword(env *Env, file string) (string, error) {
	var r io.Reader = env.Stdin
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	if r == nil {
		return "", fmt.Errorf("%w: no password: give it on standard input or in --password-file", errUsage)
	}
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", fmt.Errorf("%w: no password: give it on standard input or in --password-file", errUsage)
	}
	return line, nil
}
