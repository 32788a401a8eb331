package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Tournament is a round robin or a Swiss of a fixed number of rounds.
type Tournament struct {
	ID, Name string
	// Kind is "roundrobin" or "swiss".
	Kind string
	Spec string
	// Minutes and Increment: a live clock; Days: correspondence.
	Minutes, Increment float64
	Days               int
	Rated              bool
	// Rounds is a Swiss's number of rounds (a round robin's follows from
	// its players).
	Rounds, MaxPlayers   int
	Creator, CreatorName string
	Created, Starts      time.Time
	Status               string // open, running, over
	Round                int    // the round being played (0 before the first)
	// Bots: bot accounts may join (the people who join ask for them).
	Bots bool
}

// Tournament statuses.
const (
	TournamentOpen    = "open"
	TournamentRunning = "running"
	TournamentOver    = "over"
)

// TournamentPlayer is an entrant.
type TournamentPlayer struct {
	Player, Name string
	// Bot: the player is a bot (a program's account).
	Bot bool
	// Seed is the player's number in the pairings (0 first), set at the
	// start; -1 before.
	Seed      int
	Withdrawn bool
	Joined    time.Time
}

// TournamentGame is a game of a round, by seeds; Game is its id (""
// for a bye, Black then -1).
type TournamentGame struct {
	Round, White, Black int
	Game                string
}

// ErrNoTournament is returned for an unknown tournament.
var ErrNoTournament = errors.New("store: no such tournament")

// ErrChanged is returned when a tournament moved on meanwhile (another
// server did it).
var ErrChanged = errors.New("store: the tournament has changed meanwhile")

const tournamentColumns = `id, name, kind, spec, minutes, increment, days, rated, rounds, max_players, creator, creator_name, created, starts, status, round, bots`

func scanTournament(row scanner) (*Tournament, error) {
	var t Tournament
	var rated, bots int
	var created, starts int64
	err := row.Scan(&t.ID, &t.Name, &t.Kind, &t.Spec, &t.Minutes, &t.Increment, &t.Days, &rated, &t.Rounds, &t.MaxPlayers, &t.Creator, &t.CreatorName, &created, &starts, &t.Status, &t.Round, &bots)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoTournament
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	t.Rated, t.Bots, t.Created, t.Starts = rated != 0, bots != 0, time.UnixMilli(created), time.UnixMilli(starts)
	return &t, nil
}

// CreateTournament stores an open tournament.
func (s *Store) CreateTournament(ctx context.Context, t *Tournament) error {
	t.Created, t.Status = time.Now(), TournamentOpen
	_, err := s.exec(ctx, `INSERT INTO tournaments (`+tournamentColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.Name, t.Kind, t.Spec, t.Minutes, t.Increment, t.Days, boolInt(t.Rated), t.Rounds, t.MaxPlayers, t.Creator, t.CreatorName,
		t.Created.UnixMilli(), t.Starts.UnixMilli(), t.Status, t.Round, boolInt(t.Bots))
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	return nil
}

// Tournament reads a tournament.
func (s *Store) Tournament(ctx context.Context, id string) (*Tournament, error) {
	return scanTournament(s.queryRow(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE id = ?`, id))
}

// Tournaments lists the tournaments of a status, soonest to start first;
// at most n.
func (s *Store) Tournaments(ctx context.Context, status string, n int) ([]*Tournament, error) {
	rows, err := s.query(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE status = ? ORDER BY starts DESC, id LIMIT ?`, status, n)
	if err != nil {
		return nil, fmt.Errorf("store: tournaments: %w", err)
	}
	defer rows.Close()
	var out []*Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TournamentsCreatedSince counts the tournaments a player made since t.
func (s *Store) TournamentsCreatedSince(ctx context.Context, creator string, t time.Time) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT COUNT(*) FROM tournaments WHERE creator = ? AND created >= ?`, creator, t.UnixMilli()).Scan(&n)
	return n, err
}

// ErrTournamentFull is returned when a tournament has all the players
// it takes.
var ErrTournamentFull = errors.New("store: the tournament is full")

// lockTournament reads a tournament in a transaction, holding it (on
// PostgreSQL the row's lock; on SQLite the transaction is the one writer)
// until the transaction ends: joins, withdrawals and the start of one
// tournament happen one at a time.
func (s *Store) lockTournament(ctx context.Context, tx *sql.Tx, id string) (*Tournament, error) {
	q := `SELECT ` + tournamentColumns + ` FROM tournaments WHERE id = ?`
	if s.pg {
		q += ` FOR UPDATE`
	}
	return scanTournament(tx.QueryRowContext(ctx, s.q(q), id))
}

// JoinTournament enters a player in one transaction with the checks: a
// player already in (or withdrawn) comes back; a new one enters while the
// tournament is open, or, an arena, running (with the next seed), and has
// a place (ErrTournamentFull otherwise; ErrChanged once it has begun).
func (s *Store) JoinTournament(ctx context.Context, id, player, name string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: join: %w", err)
	}
	defer tx.Rollback()
	t, err := s.lockTournament(ctx, tx, id)
	if err != nil {
		return err
	}
	running := t.Status == TournamentRunning && t.Kind == "arena"
	if t.Status != TournamentOpen && !running {
		return ErrChanged
	}
	res, err := tx.ExecContext(ctx, s.q(`UPDATE tournament_players SET withdrawn = 0 WHERE tournament = ? AND player = ?`), id, player)
	if err != nil {
		return fmt.Errorf("store: join: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return tx.Commit()
	}
	var n, top int
	if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*), COALESCE(MAX(seed), -1) FROM tournament_players WHERE tournament = ?`), id).Scan(&n, &top); err != nil {
		return fmt.Errorf("store: join: %w", err)
	}
	if n >= t.MaxPlayers {
		return ErrTournamentFull
	}
	seed := -1
	if running {
		seed = top + 1
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO tournament_players (tournament, player, name, seed, joined) VALUES (?, ?, ?, ?, ?)`),
		id, player, name, seed, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("store: join: %w", err)
	}
	return tx.Commit()
}

// WithdrawTournament withdraws a player: before the start he leaves,
// after it he is paired no more. It is made under the tournament's lock,
// so that it lands before its start or after, never in the middle.
func (s *Store) WithdrawTournament(ctx context.Context, id, player string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: withdraw: %w", err)
	}
	defer tx.Rollback()
	t, err := s.lockTournament(ctx, tx, id)
	if err != nil {
		return err
	}
	q := `DELETE FROM tournament_players WHERE tournament = ? AND player = ?`
	if t.Status != TournamentOpen {
		q = `UPDATE tournament_players SET withdrawn = 1 WHERE tournament = ? AND player = ?`
	}
	if _, err := tx.ExecContext(ctx, s.q(q), id, player); err != nil {
		return fmt.Errorf("store: withdraw: %w", err)
	}
	return tx.Commit()
}

// TournamentPlayers lists the entrants by seed (then by joining).
func (s *Store) TournamentPlayers(ctx context.Context, id string) ([]TournamentPlayer, error) {
	return s.tournamentPlayers(ctx, s.rdb, id)
}

// querier reads: the database, its readers or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store) tournamentPlayers(ctx context.Context, q querier, id string) ([]TournamentPlayer, error) {
	rows, err := q.QueryContext(ctx, s.q(`SELECT tp.player, tp.name, tp.seed, tp.withdrawn, tp.joined, COALESCE(p.bot, 0) FROM tournament_players tp LEFT JOIN players p ON p.id = tp.player
		WHERE tp.tournament = ? ORDER BY tp.seed, tp.joined, tp.player`), id)
	if err != nil {
		return nil, fmt.Errorf("store: tournament players: %w", err)
	}
	defer rows.Close()
	var out []TournamentPlayer
	for rows.Next() {
		var p TournamentPlayer
		var w, bot int
		var joined int64
		if err := rows.Scan(&p.Player, &p.Name, &p.Seed, &w, &joined, &bot); err != nil {
			return nil, err
		}
		p.Withdrawn, p.Joined, p.Bot = w != 0, time.UnixMilli(joined), bot != 0
		out = append(out, p)
	}
	return out, rows.Err()
}

// ErrTooFew is returned by StartTournament for a tournament of fewer
// than two players: it is called off instead.
var ErrTooFew = errors.New("store: fewer than two players: the tournament is called off")

// StartTournament moves an open tournament to running, in one
// transaction with the players it has then: order sorts them into their
// seeds (0 first) and returns the rounds to play. With fewer than two
// players the tournament is called off (ErrTooFew); ErrChanged if it is
// no longer open.
func (s *Store) StartTournament(ctx context.Context, id string, order func(ps []TournamentPlayer) (rounds int)) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: start tournament: %w", err)
	}
	defer tx.Rollback()
	t, err := s.lockTournament(ctx, tx, id)
	if err != nil {
		return err
	}
	if t.Status != TournamentOpen {
		return ErrChanged
	}
	ps, err := s.tournamentPlayers(ctx, tx, id)
	if err != nil {
		return err
	}
	if len(ps) < 2 {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE tournaments SET status = 'over' WHERE id = ?`), id); err != nil {
			return fmt.Errorf("store: call off tournament: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		return ErrTooFew
	}
	rounds := order(ps)
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE tournaments SET status = 'running', rounds = ? WHERE id = ?`), rounds, id); err != nil {
		return fmt.Errorf("store: start tournament: %w", err)
	}
	for seed, p := range ps {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE tournament_players SET seed = ? WHERE tournament = ? AND player = ?`), seed, id, p.Player); err != nil {
			return fmt.Errorf("store: start tournament: %w", err)
		}
	}
	return tx.Commit()
}

// BeginRound records a round's games and moves the tournament from round
// from to from+1, in one transaction: of two servers, one pairs it.
func (s *Store) BeginRound(ctx context.Context, id string, from int, games []TournamentGame) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store: begin round: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND status = 'running'`), from+1, id, from)
	if err != nil {
		return fmt.Errorf("store: begin round: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrChanged
	}
	for _, g := range games {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO tournament_games (tournament, round, white, black, game) VALUES (?, ?, ?, ?, ?)`), id, g.Round, g.White, g.Black, g.Game); err != nil {
			return fmt.Errorf("store: begin round: %w", err)
		}
	}
	return tx.Commit()
}

// TournamentGames lists a tournament's games, round by round.
func (s *Store) TournamentGames(ctx context.Context, id string) ([]TournamentGame, error) {
	rows, err := s.query(ctx, `SELECT round, white, black, game FROM tournament_games WHERE tournament = ? ORDER BY round, white`, id)
	if err != nil {
		return nil, fmt.Errorf("store: tournament games: %w", err)
	}
	defer rows.Close()
	var out []TournamentGame
	for rows.Next() {
		var g TournamentGame
		if err := rows.Scan(&g.Round, &g.White, &g.Black, &g.Game); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// TournamentsDue lists the running tournaments that a game's end may have
// left waiting, found by the database alone, without reading a game: a
// round robin or Swiss whose round has no game still playing (or a game
// paired and not yet made), and an arena with two players free; at most
// n. The director's slow sweep advances these, for an event lost with a
// server that stopped.
func (s *Store) TournamentsDue(ctx context.Context, n int) ([]string, error) {
	return s.ids(ctx, `SELECT t.id FROM tournaments t WHERE t.status = 'running' AND (
		(t.kind <> 'arena' AND NOT EXISTS (SELECT 1 FROM tournament_games tg JOIN games g ON g.id = tg.game
			WHERE tg.tournament = t.id AND tg.round = t.round AND g.status = 'playing'))
		OR EXISTS (SELECT 1 FROM tournament_games tg WHERE tg.tournament = t.id AND tg.black >= 0
			AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = tg.game))
		OR (t.kind = 'arena' AND (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament = t.id AND p.withdrawn = 0)
			- 2 * (SELECT COUNT(*) FROM tournament_games tg JOIN games g ON g.id = tg.game WHERE tg.tournament = t.id AND g.status = 'playing') >= 2)
	) ORDER BY t.id LIMIT ?`, n)
}

// TournamentOfGame returns the id of the tournament a game belongs to;
// ErrNoTournament for a game of none.
func (s *Store) TournamentOfGame(ctx context.Context, game string) (string, error) {
	var id string
	err := s.queryRow(ctx, `SELECT tournament FROM tournament_games WHERE game = ?`, game).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNoTournament
	}
	return id, err
}

// FinishTournament ends a running tournament.
func (s *Store) FinishTournament(ctx context.Context, id string) error {
	if _, err := s.exec(ctx, `UPDATE tournaments SET status = 'over' WHERE id = ? AND status = 'running'`, id); err != nil {
		return fmt.Errorf("store: finish tournament: %w", err)
	}
	return nil
}

// CancelTournament ends an open tournament that never began.
func (s *Store) CancelTournament(ctx context.Context, id string) error {
	if _, err := s.exec(ctx, `UPDATE tournaments SET status = 'over' WHERE id = ? AND status = 'open'`, id); err != nil {
		return fmt.Errorf("store: cancel tournament: %w", err)
	}
	return nil
}

// StartNow brings an open tournament's start to now (its creator's
// "start now"); the next sweep starts it.
func (s *Store) StartNow(ctx context.Context, id string) error {
	res, err := s.exec(ctx, `UPDATE tournaments SET starts = ? WHERE id = ? AND status = 'open'`, time.Now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("store: start now: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return ErrChanged
	}
	return nil
}
