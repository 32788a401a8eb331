// Package moderation is what a public site needs against abuse: any
// account reports a player or a chat line; administrators — accounts
// marked so from the command line (muster admin) — read the open reports
// and close each by dismissing it, muting the player (his chat lines are
// refused) or banning him (he may no longer challenge, accept, start a
// game with others or chat; his games in play go on). The other packages
// enforce the mute and the ban where they act (chat, lobby, play).
package moderation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/muster-games/muster/internal/auth"
	"github.com/muster-games/muster/internal/httpx"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/token"
)

// Identity tells who a request comes from (internal/identity).
type Identity interface {
	Me(r *http.Request) (*store.Player, error)
}

const (
	// ReportsPerHour bounds the reports one account makes an hour.
	ReportsPerHour = 10
	maxReason      = 500
	reportsShown   = 200
)

// Errors a banned or muted player is answered with, by the packages that
// enforce them.
// errSelfModeration refuses an administrator's mute or ban of himself,
// which no one on the site could lift (the operator can: muster admin).
var errSelfModeration = httpx.NewError(http.StatusForbidden, "an administrator does not mute or ban himself")

// errReported answers a report its reporter has already made, still
// open: one is enough for the administrators to see.
var errReported = httpx.NewError(http.StatusConflict, "you have reported this already: the administrators will read it")

var (
	ErrBanned = httpx.NewError(http.StatusForbidden, "this account is banned: it can no longer challenge, accept, start games with others or chat")
	ErrMuted  = httpx.NewError(http.StatusForbidden, "this account is muted: its chat messages are not accepted")
)

var (
	errAccount  = httpx.NewError(http.StatusForbidden, "sign in to an account to report")
	errAdmin    = httpx.NewError(http.StatusForbidden, "only an administrator may do this")
	errNoReport = httpx.NewError(http.StatusNotFound, "no such open report")
	errNoPlayer = httpx.NewError(http.StatusNotFound, "no such player")
	errNoLine   = httpx.NewError(http.StatusNotFound, "no such chat message")
	errSelf     = httpx.NewError(http.StatusBadRequest, "you cannot report yourself")
)

// Moderation serves the reports and the administrators' actions.
type Moderation struct {
	store *store.Store
	api   *httpx.API
	log   *slog.Logger
	ids   Identity
	// reporting orders each reporter's reports (counted, then made).
	reporting auth.Locks
}

// New returns the moderation service.
func New(st *store.Store, api *httpx.API, ids Identity) *Moderation {
	return &Moderation{store: st, api: api, log: api.Log, ids: ids}
}

// Routes adds the moderation routes to mux.
func (m *Moderation) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/reports", m.api.Func(m.report))
	mux.HandleFunc("GET /api/reports", m.api.Func(m.list))
	mux.HandleFunc("POST /api/reports/{id}/close", m.api.Func(m.close))
	mux.HandleFunc("POST /api/admin/players/{name}", m.api.Func(m.setPlayer))
}

type reportRequest struct {
	// Username names the player reported; or Game and Line a chat line.
	Username string `json:"username,omitempty"`
	Game     string `json:"game,omitempty"`
	Line     int64  `json:"line,omitempty"`
	Reason   string `json:"reason"`
}

// report stores an account's report of a player or a chat line.
func (m *Moderation) report(w http.ResponseWriter, r *http.Request) error {
	var req reportRequest
	if err := m.api.Decode(w, r, &req); err != nil {
		return err
	}
	me, err := m.ids.Me(r)
	if err != nil {
		return err
	}
	if me == nil || me.Anonymous() {
		return errAccount
	}
	reason, err := text(req.Reason)
	if err != nil {
		return httpx.WithCode(http.StatusBadRequest, err)
	}
	ctx := r.Context()
	// The limit first, before the line or the player is read.
	defer m.reporting.Lock(me.ID)()
	if n, err := m.store.ReportsSince(ctx, me.ID, time.Now().Add(-time.Hour)); err != nil {
		return httpx.Unavailable(err)
	} else if n >= ReportsPerHour {
		return httpx.WithCode(http.StatusTooManyRequests, fmt.Errorf("at most %d reports an hour", ReportsPerHour))
	}
	rep := &store.Report{ID: token.ID(), Reporter: me.ID, Reason: reason}
	switch {
	case req.Line != 0:
		msg, err := m.store.Message(ctx, req.Game, req.Line)
		if errors.Is(err, store.ErrNoMessage) {
			return errNoLine
		} else if err != nil {
			return httpx.Unavailable(err)
		}
		rep.Target, rep.Game, rep.Line, rep.Quoted = msg.Player, msg.Game, msg.ID, msg.Text
	case req.Username != "":
		p, err := m.store.PlayerNamed(ctx, auth.UsernameKey(req.Username))
		if errors.Is(err, store.ErrNoPlayer) {
			return errNoPlayer
		} else if err != nil {
			return httpx.Unavailable(err)
		}
		rep.Target = p.ID
	default:
		return httpx.NewError(http.StatusBadRequest, "name the player (username) or the chat message (game and line) you report")
	}
	if rep.Target == me.ID {
		return errSelf
	}
	switch err := m.store.CreateReport(ctx, rep); {
	case errors.Is(err, store.ErrReported):
		return errReported
	case err != nil:
		return httpx.Unavailable(err)
	}
	return m.api.JSON(w, http.StatusCreated, map[string]string{"id": rep.ID, "status": rep.Status})
}

// text checks a report's reason: one line, 1 to maxReason characters.
func text(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", errors.New("say why you report (a few words)")
	case !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxReason:
		return "", fmt.Errorf("a reason is at most %d characters of text", maxReason)
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return "", errors.New("a reason is one line of text")
		}
	}
	if err := Visible(s); err != nil {
		return "", err
	}
	return s, nil
}

// adminRequest reads an administrator's request body into req and
// returns the administrator, or errAdmin.
func (m *Moderation) adminRequest(w http.ResponseWriter, r *http.Request, req any) (*store.Player, error) {
	if err := m.api.Decode(w, r, req); err != nil {
		return nil, err
	}
	return m.admin(r)
}

// admin returns the request's administrator, or errAdmin.
func (m *Moderation) admin(r *http.Request) (*store.Player, error) {
	me, err := m.ids.Me(r)
	if err != nil {
		return nil, err
	}
	if me == nil || !me.Admin || me.Banned {
		return nil, errAdmin
	}
	return me, nil
}

// reportView is a report as the administrators' page lists it.
type reportView struct {
	ID       string `json:"id"`
	Reporter string `json:"reporter"`
	Target   string `json:"target"`
	// Muted and Banned say what the target is now.
	Muted   bool   `json:"muted,omitempty"`
	Banned  bool   `json:"banned,omitempty"`
	Game    string `json:"game,omitempty"`
	Line    int64  `json:"line,omitempty"`
	Quoted  string `json:"quoted,omitempty"`
	Reason  string `json:"reason"`
	Created int64  `json:"created"`
}

// list answers the open reports, the oldest first.
func (m *Moderation) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := m.admin(r); err != nil {
		return err
	}
	rs, err := m.store.Reports(r.Context(), store.ReportOpen, reportsShown)
	if err != nil {
		return httpx.Unavailable(err)
	}
	out := []reportView{}
	for _, rep := range rs {
		v := reportView{ID: rep.ID, Reporter: named(rep.ReporterName), Target: named(rep.TargetName), Game: rep.Game, Line: rep.Line,
			Quoted: rep.Quoted, Reason: rep.Reason, Created: rep.Created.UnixMilli()}
		if p, err := m.store.Player(r.Context(), rep.Target); err == nil {
			v.Muted, v.Banned = p.Muted, p.Banned
		}
		out = append(out, v)
	}
	return m.api.JSON(w, http.StatusOK, out)
}

func named(s string) string {
	if s == "" {
		return "Anonymous"
	}
	return s
}

// Resolutions of a report.
const (
	Dismissed = "dismissed"
	Muted     = "muted"
	Banned    = "banned"
)

// close closes a report: dismissed, or with its target muted or banned.
func (m *Moderation) close(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Resolution string `json:"resolution"`
	}
	me, err := m.adminRequest(w, r, &req)
	if err != nil {
		return err
	}
	ctx := r.Context()
	rep, err := m.store.Report(ctx, r.PathValue("id"))
	if err != nil || rep.Status != store.ReportOpen {
		return errNoReport
	}
	if rep.Target == me.ID && req.Resolution != Dismissed {
		return errSelfModeration
	}
	switch req.Resolution {
	case Dismissed:
	case Muted:
		err = m.store.SetMuted(ctx, rep.Target, true)
	case Banned:
		err = m.store.SetBanned(ctx, rep.Target, true)
	default:
		return httpx.WithCode(http.StatusBadRequest, fmt.Errorf("resolution %q: dismissed, muted or banned", req.Resolution))
	}
	if err != nil {
		return httpx.Unavailable(err)
	}
	if err := m.store.CloseReport(ctx, rep.ID, req.Resolution, me.ID); err != nil {
		return errNoReport
	}
	m.log.Info("report closed", "report", rep.ID, "resolution", req.Resolution, "by", me.Username)
	return m.api.JSON(w, http.StatusOK, map[string]string{"status": store.ReportClosed, "resolution": req.Resolution})
}

// setPlayer mutes or bans a player, or lifts either.
func (m *Moderation) setPlayer(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Muted  *bool `json:"muted"`
		Banned *bool `json:"banned"`
	}
	me, err := m.adminRequest(w, r, &req)
	if err != nil {
		return err
	}
	ctx := r.Context()
	p, err := m.store.PlayerNamed(ctx, auth.UsernameKey(r.PathValue("name")))
	if errors.Is(err, store.ErrNoPlayer) {
		return errNoPlayer
	} else if err != nil {
		return httpx.Unavailable(err)
	}
	if p.ID == me.ID {
		return errSelfModeration
	}
	if req.Muted != nil {
		if err := m.store.SetMuted(ctx, p.ID, *req.Muted); err != nil {
			return httpx.Unavailable(err)
		}
		p.Muted = *req.Muted
	}
	if req.Banned != nil {
		if err := m.store.SetBanned(ctx, p.ID, *req.Banned); err != nil {
			return httpx.Unavailable(err)
		}
		p.Banned = *req.Banned
	}
	m.log.Info("player moderated", "player", p.Username, "muted", p.Muted, "banned", p.Banned, "by", me.Username)
	return m.api.JSON(w, http.StatusOK, map[string]any{"username": p.Username, "muted": p.Muted, "banned": p.Banned})
}

// CheckPlayer is Check of the player with id (nobody for ""), read from
// st: what a seat's holder may do is checked on the seat's player, not
// only on the session that asks, as a seat's secret needs no session.
func CheckPlayer(ctx context.Context, st *store.Store, id string, chat bool) error {
	if id == "" {
		return nil
	}
	p, err := st.Player(ctx, id)
	switch {
	case errors.Is(err, store.ErrNoPlayer):
		return nil
	case err != nil:
		return httpx.Unavailable(err)
	}
	return Check(p, chat)
}

// Check is what the packages that act call: ErrBanned for a banned
// player, ErrMuted for a muted one when chat is set; nil otherwise.
func Check(p *store.Player, chat bool) error {
	switch {
	case p == nil:
		return nil
	case p.Banned:
		return ErrBanned
	case chat && p.Muted:
		return ErrMuted
	}
	return nil
}

// ErrInvisible refuses a text with characters that change how others are
// shown or are not shown at all.
var ErrInvisible = errors.New("the text has invisible characters (direction controls or zero-width marks): type it again without them")

// Visible checks that a text people write for others (a chat line, a
// tournament's name, a report) has no character that is not shown or
// that changes how the text around it is shown: the direction controls
// (which can make a line read backwards or hide what follows) and the
// other format characters, the zero-width space among them. The
// zero-width joiner of emoji sequences is kept.
func Visible(s string) error {
	for _, c := range s {
		if c != '\u200d' && (unicode.Is(unicode.Bidi_Control, c) || unicode.Is(unicode.Cf, c)) {
			return ErrInvisible
		}
	}
	return nil
}
