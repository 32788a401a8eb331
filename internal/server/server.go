// Package server is Muster's web app: HTTP handlers for the pages and the
// JSON API, WebSocket connections that carry every change of a game live,
// the agents playing their seats, and the limits that keep it safe. Games
// are stored as they are played (internal/store), so a restarted server
// continues every game where it was.
package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/muster-games/muster/agent"
	"github.com/muster-games/muster/docs"
	"github.com/muster-games/muster/game"
	"github.com/muster-games/muster/internal/store"
	"github.com/muster-games/muster/internal/web"
)

// Config holds the limits and settings of a server.
type Config struct {
	// MaxBody bounds a request body.
	MaxBody int64
	// GamesPerHour bounds the games one client (address) creates an hour.
	GamesPerHour int
	// ConnsPerClient bounds one client's WebSocket connections at once;
	// ConnsPerGame a game's.
	ConnsPerClient, ConnsPerGame int
	// AgentTimeout bounds an agent's thinking for one action.
	AgentTimeout time.Duration
	// Log receives the server's messages (nil: discard).
	Log io.Writer
	// Reports is a folder of reports (muster report --html) served under
	// /reports/, or "" for none.
	Reports string
}

// DefaultConfig are the limits of a public server.
var DefaultConfig = Config{MaxBody: 64 << 10, GamesPerHour: 60, ConnsPerClient: 32, ConnsPerGame: 64, AgentTimeout: 60 * time.Second}

// Server is the web app.
type Server struct {
	cfg   Config
	store *store.Store
	log   *log.Logger
	ctx   context.Context
	stop  context.CancelFunc
	wg    sync.WaitGroup
	mux   *http.ServeMux

	mu        sync.Mutex
	rooms     map[string]*room
	conns     map[string]int // per client
	gameConns map[string]int // per game
}

// New makes a server on a store; Close stops its agents.
func New(st *store.Store, cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, store: st, log: log.New(cfg.Log, "muster: ", log.LstdFlags), ctx: ctx, stop: stop,
		rooms: map[string]*room{}, conns: map[string]int{}, gameConns: map[string]int{}}
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", web.Static()))
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /g/{id}", s.page)
	mux.HandleFunc("GET /rules/{game}", s.page)
	mux.HandleFunc("GET /api/games", s.catalogue)
	mux.HandleFunc("POST /api/games", s.create)
	mux.HandleFunc("POST /api/import", s.importRecord)
	mux.HandleFunc("GET /api/games/{id}", s.get)
	mux.HandleFunc("GET /api/games/{id}/record", s.record)
	mux.HandleFunc("POST /api/games/{id}/join", s.join)
	mux.HandleFunc("POST /api/games/{id}/act", s.act)
	mux.HandleFunc("POST /api/games/{id}/resign", s.resign)
	mux.HandleFunc("POST /api/games/{id}/draw", s.draw)
	mux.HandleFunc("GET /ws/games/{id}", s.watch)
	mux.HandleFunc("GET /docs/{name}", s.doc)
	if cfg.Reports != "" {
		// http.Dir keeps requests inside the folder.
		mux.Handle("GET /reports/", http.StripPrefix("/reports/", http.FileServer(http.Dir(cfg.Reports))))
	}
	s.mux = mux
	s.wg.Add(1)
	go s.sweep(time.Minute, 10*time.Minute)
	return s
}

// sweep drops idle rooms from memory every period; they are loaded again
// from the store when needed.
func (s *Server) sweep(period, idle time.Duration) {
	defer s.wg.Done()
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.evict(idle)
		}
	}
}

// evict drops the rooms idle for longer than idle and returns how many.
func (s *Server) evict(idle time.Duration) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, r := range s.rooms {
		r.mu.Lock()
		if r.idle(idle) {
			delete(s.rooms, id)
			n++
		}
		r.mu.Unlock()
	}
	return n
}

// Resume starts the agents of the games in play whose turn is theirs (after
// a restart).
func (s *Server) Resume(ctx context.Context) error {
	ids, err := s.store.Playing(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		r, err := s.room(ctx, id)
		if err != nil {
			s.log.Printf("resume %s: %v", id, err)
			continue
		}
		r.mu.Lock()
		r.kick()
		r.arm()
		r.mu.Unlock()
	}
	return nil
}

// Close stops the agents and waits for them.
func (s *Server) Close() {
	s.stop()
	s.mu.Lock()
	for _, r := range s.rooms {
		r.mu.Lock()
		if r.timer != nil {
			r.timer.Stop()
		}
		r.mu.Unlock()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	s.mux.ServeHTTP(w, r)
}

// room returns the game's room, loading it from the store.
func (s *Server) room(ctx context.Context, id string) (*room, error) {
	if !validID(id) {
		return nil, store.ErrNotFound
	}
	s.mu.Lock()
	r := s.rooms[id]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	rec, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	r, err = newRoom(s, rec)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.rooms[id]; old != nil {
		return old, nil
	}
	s.rooms[id] = r
	return r, nil
}

func validID(id string) bool {
	if len(id) != 12 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// randomToken returns n random bytes as hex.
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func newID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

func equalHash(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// client identifies the caller for limits: its address without the port.
func client(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	err := enc.Encode(v)
	return b.Bytes(), err
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := marshal(v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

// decode reads a JSON body of at most MaxBody bytes into v, refusing
// unknown fields and trailing data.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("the request is larger than %d bytes", s.cfg.MaxBody)
		}
		return fmt.Errorf("bad request: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("bad request: data after the JSON object")
	}
	return nil
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'")
	w.Write(web.Index())
}

// doc shows one of Muster's documents as plain text in a page.
func (s *Server) doc(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	text, err := docs.Files.ReadFile(name)
	if err != nil || strings.ContainsAny(name, "/\\") {
		writeError(w, http.StatusNotFound, errors.New("no such document"))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	body := "<pre style=\"white-space:pre-wrap\">" + html.EscapeString(string(text)) + "</pre>"
	if strings.HasSuffix(name, ".md") {
		body = markdown(string(text))
	}
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>%s</title>"+
		"<style>body{font-family:Georgia,serif;max-width:1000px;margin:auto;padding:1rem;line-height:1.45}"+
		"table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2rem .5rem;vertical-align:top}"+
		"pre{background:#f4f1ea;padding:.5rem;overflow-x:auto}code{background:#f4f1ea}blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#444}"+
		":target{background:#fff3c4}</style><body><p><a href=\"/\">Muster</a></p>%s</body></html>", html.EscapeString(name), body)
}

// catalogue lists the games, their rulesets and options, and the agent
// levels, for the home page.
func (s *Server) catalogue(w http.ResponseWriter, r *http.Request) {
	var games []game.Info
	for _, n := range game.Names() {
		info, _ := game.Lookup(n)
		games = append(games, info)
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games, "levels": agent.Levels, "reports": s.cfg.Reports != ""})
}

// createRequest is the body of POST /api/games.
type createRequest struct {
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	// Opponent is "ai", "friend" (a seat held by an invitation) or
	// "local" (both seats in this browser).
	Opponent string `json:"opponent"`
	Level    string `json:"level"`
	// Side is the creator's player name, or "random".
	Side string `json:"side"`
	// Minutes and Increment (seconds) set a clock; 0 minutes: none.
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
}

type createResponse struct {
	ID     string `json:"id"`
	Seat   int    `json:"seat"`
	Secret string `json:"secret"`
	// Secrets of both seats for a local game.
	Secrets []string `json:"secrets,omitempty"`
	// Invite is the path a friend opens to take the other seat.
	Invite string `json:"invite,omitempty"`
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	resp, code, err := s.newGame(r, req, nil)
	if err != nil {
		writeError(w, code, err)
		return
	}
	writeJSON(w, http.StatusCreated, resp)
}

// newGame makes a game from a request, with actions already played (an
// import).
func (s *Server) newGame(r *http.Request, req createRequest, actions []string) (createResponse, int, error) {
	spec := req.Game
	if req.Ruleset != "" {
		spec = req.Game + "(" + req.Ruleset + ")"
	}
	g, err := game.Load(spec)
	if err != nil {
		return createResponse{}, http.StatusBadRequest, err
	}
	owner := client(r)
	if n, err := s.store.CountSince(r.Context(), owner, time.Now().Add(-time.Hour)); err != nil {
		return createResponse{}, http.StatusInternalServerError, err
	} else if n >= s.cfg.GamesPerHour {
		return createResponse{}, http.StatusTooManyRequests, fmt.Errorf("at most %d new games an hour from one address", s.cfg.GamesPerHour)
	}
	seat := -1
	for p := 0; p < g.NumPlayers(); p++ {
		if g.PlayerName(game.Player(p)) == req.Side {
			seat = p
		}
	}
	switch {
	case req.Side == "random" || req.Side == "":
		seat = int(randomToken(1)[0]) % 2
	case seat < 0:
		return createResponse{}, http.StatusBadRequest, fmt.Errorf("unknown side %q (known: %s, %s, random)", req.Side, g.PlayerName(0), g.PlayerName(1))
	}
	secret := randomToken(16)
	seats := make([]store.Seat, 2)
	seats[seat] = store.Seat{Kind: "human", SecretHash: hashSecret(secret)}
	resp := createResponse{Seat: seat, Secret: secret}
	other := 1 - seat
	switch req.Opponent {
	case "ai", "":
		level := req.Level
		if level == "" {
			level = "medium"
		}
		if _, err := agent.New(level, g, 1); err != nil {
			return createResponse{}, http.StatusBadRequest, err
		}
		seats[other] = store.Seat{Kind: "ai", Agent: level}
	case "friend":
		token := randomToken(16)
		seats[other] = store.Seat{Kind: "human", JoinHash: hashSecret(token)}
		resp.Invite = "/g/%s?join=" + token
	case "local":
		second := randomToken(16)
		seats[other] = store.Seat{Kind: "human", SecretHash: hashSecret(second)}
		resp.Secrets = make([]string, 2)
		resp.Secrets[seat], resp.Secrets[other] = secret, second
	default:
		return createResponse{}, http.StatusBadRequest, fmt.Errorf("unknown opponent %q (known: ai, friend, local)", req.Opponent)
	}
	rec := &store.Game{ID: newID(), Spec: g.Spec(), Seats: seats, Owner: owner, Actions: actions, DrawOffer: -1}
	switch {
	case req.Minutes < 0 || req.Minutes > 600 || req.Increment < 0 || req.Increment > 600:
		return createResponse{}, http.StatusBadRequest, errors.New("a clock is 0 to 600 minutes with 0 to 600 seconds a turn")
	case req.Minutes > 0:
		base := int64(req.Minutes * 60000)
		rec.Clock = &store.Clock{BaseMS: base, IncMS: int64(req.Increment * 1000), LeftMS: [2]int64{base, base}, SinceMS: time.Now().UnixMilli()}
	}
	st := g.NewState()
	for _, a := range actions {
		x, err := st.ParseAction(a)
		if err != nil {
			return createResponse{}, http.StatusBadRequest, err
		}
		st.Apply(x)
	}
	if st.IsTerminal() {
		rec.Status, rec.Result, rec.Reason = "over", game.ResultName(st), st.Result().Reason
	}
	if err := s.store.Create(r.Context(), rec); err != nil {
		return createResponse{}, http.StatusInternalServerError, err
	}
	resp.ID = rec.ID
	if resp.Invite != "" {
		resp.Invite = fmt.Sprintf(resp.Invite, rec.ID)
	}
	room, err := s.room(r.Context(), rec.ID)
	if err != nil {
		return createResponse{}, http.StatusInternalServerError, err
	}
	room.mu.Lock()
	room.kick()
	room.arm()
	room.mu.Unlock()
	return resp, http.StatusCreated, nil
}

type importRequest struct {
	createRequest
	Record string `json:"record"`
}

// importRecord starts a game from a record (its moves replayed and checked).
func (s *Server) importRecord(w http.ResponseWriter, r *http.Request) {
	var req importRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	g, err := game.Load(req.Game)
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	rc, ok := g.(game.Recorder)
	if !ok {
		writeError(w, http.StatusBadRequest, fmt.Errorf("%s has no record format", g.Name()))
		return
	}
	rec, err := rc.ReadRecord(strings.NewReader(req.Record))
	if err == nil && rec.Start != "" {
		err = errors.New("records from a set-up position cannot be imported")
	}
	var st game.State
	if err == nil {
		st, err = game.Replay(rec)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	sp, _ := game.ParseSpec(st.Game().Spec())
	req.createRequest.Game = sp.Name
	req.createRequest.Ruleset = strings.TrimSuffix(strings.TrimPrefix(st.Game().Spec(), sp.Name+"("), ")")
	if req.createRequest.Ruleset == st.Game().Spec() {
		req.createRequest.Ruleset = ""
	}
	resp, code, err := s.newGame(r, req.createRequest, rec.Actions)
	if err != nil {
		writeError(w, code, err)
		return
	}
	writeJSON(w, http.StatusCreated, resp)
}

func (s *Server) roomOr404(w http.ResponseWriter, r *http.Request) *room {
	rm, err := s.room(r.Context(), r.PathValue("id"))
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, errors.New("no such game"))
		return nil
	case err != nil:
		writeError(w, http.StatusInternalServerError, err)
		return nil
	}
	return rm
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	rm := s.roomOr404(w, r)
	if rm == nil {
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if q := r.URL.Query().Get("ply"); q != "" {
		ply, err := strconv.Atoi(q)
		if err != nil || ply < 0 || ply > len(rm.rec.Actions) {
			writeError(w, http.StatusBadRequest, fmt.Errorf("ply must be 0 to %d", len(rm.rec.Actions)))
			return
		}
		writeJSON(w, http.StatusOK, rm.viewAt(ply))
		return
	}
	writeJSON(w, http.StatusOK, rm.view())
}

// record sends the game's record in the game's own format.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	rm := s.roomOr404(w, r)
	if rm == nil {
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rc, ok := rm.g.(game.Recorder)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Errorf("%s has no record format", rm.g.Name()))
		return
	}
	tags := []game.KV{{Key: "site", Value: "Muster"}, {Key: "date", Value: rm.rec.Created.Format("2006.01.02")}}
	for p, seat := range rm.rec.Seats {
		who := "person"
		if seat.Kind == "ai" {
			who = "Muster " + seat.Agent
		}
		tags = append(tags, game.KV{Key: rm.g.PlayerName(game.Player(p)), Value: who})
	}
	if rm.rec.Status == "over" {
		tags = append(tags, game.KV{Key: "result", Value: rm.rec.Result}, game.KV{Key: "termination", Value: rm.rec.Reason})
	}
	var b bytes.Buffer
	if err := rc.WriteRecord(&b, game.NewRecord("", rm.s, tags...)); err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", rm.rec.ID+".txt"))
	w.Write(b.Bytes())
}

type joinRequest struct {
	Token string `json:"token"`
}

// join gives the seat left for a friend to the holder of its invitation,
// once.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	rm := s.roomOr404(w, r)
	if rm == nil {
		return
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	h := hashSecret(req.Token)
	for p, seat := range rm.rec.Seats {
		if seat.JoinHash != "" && req.Token != "" && equalHash(seat.JoinHash, h) {
			secret := randomToken(16)
			ply := len(rm.rec.Actions)
			rm.rec.Seats[p].JoinHash = ""
			rm.rec.Seats[p].SecretHash = hashSecret(secret)
			if err := s.store.Update(r.Context(), rm.rec, ply); err != nil {
				rm.rec.Seats[p] = seat
				writeError(w, http.StatusConflict, err)
				return
			}
			rm.broadcast()
			writeJSON(w, http.StatusOK, map[string]any{"seat": p, "secret": secret})
			return
		}
	}
	writeError(w, http.StatusForbidden, errors.New("this invitation is not valid (it may have been used)"))
}

type actRequest struct {
	Secret string `json:"secret"`
	Action string `json:"action"`
	Ply    int    `json:"ply"`
}

func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	var req actRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	if len(req.Action) > 64 {
		writeError(w, http.StatusBadRequest, errors.New("an action is at most 64 characters"))
		return
	}
	rm := s.roomOr404(w, r)
	if rm == nil {
		return
	}
	if err := rm.play(r.Context(), req.Secret, req.Action, req.Ply); err != nil {
		code := http.StatusUnprocessableEntity
		switch {
		case errors.Is(err, errBadSecret):
			code = http.StatusForbidden
		case errors.Is(err, errStale), errors.Is(err, store.ErrConflict):
			code = http.StatusConflict
		}
		writeError(w, code, err)
		return
	}
	rm.mu.Lock()
	v := rm.view()
	rm.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

type secretRequest struct {
	Secret string `json:"secret"`
	// What is, for draws, offer, accept or decline.
	What string `json:"what,omitempty"`
}

// seated reads a request with a seat's secret and returns the game's room,
// locked, and the seat; it has answered with an error when the room is nil.
func (s *Server) seated(w http.ResponseWriter, r *http.Request, req *secretRequest) (*room, int) {
	if err := s.decode(w, r, req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return nil, -1
	}
	rm := s.roomOr404(w, r)
	if rm == nil {
		return nil, -1
	}
	rm.mu.Lock()
	seat := rm.seatOf(req.Secret)
	switch {
	case seat < 0:
		writeError(w, http.StatusForbidden, errBadSecret)
	case rm.rec.Status == "over":
		writeError(w, http.StatusConflict, errOver)
	default:
		return rm, seat
	}
	rm.mu.Unlock()
	return nil, -1
}

func (s *Server) resign(w http.ResponseWriter, r *http.Request) {
	var req secretRequest
	rm, seat := s.seated(w, r, &req)
	if rm == nil {
		return
	}
	defer rm.mu.Unlock()
	winner := rm.g.PlayerName(game.Player(1 - seat))
	if err := rm.end(r.Context(), winner, rm.g.PlayerName(game.Player(seat))+" resigned"); err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, rm.view())
}

func (s *Server) draw(w http.ResponseWriter, r *http.Request) {
	var req secretRequest
	rm, seat := s.seated(w, r, &req)
	if rm == nil {
		return
	}
	defer rm.mu.Unlock()
	ply := len(rm.rec.Actions)
	switch req.What {
	case "offer":
		if rm.agents[1-seat] != nil {
			writeError(w, http.StatusUnprocessableEntity, errors.New("the agent declines: it plays on"))
			return
		}
		rm.rec.DrawOffer = seat
	case "accept":
		if rm.rec.DrawOffer != 1-seat {
			writeError(w, http.StatusUnprocessableEntity, errors.New("there is no draw offer to accept"))
			return
		}
		if err := rm.end(r.Context(), "draw", "draw agreed"); err != nil {
			writeError(w, http.StatusInternalServerError, err)
			return
		}
		writeJSON(w, http.StatusOK, rm.view())
		return
	case "decline":
		rm.rec.DrawOffer = -1
	default:
		writeError(w, http.StatusBadRequest, fmt.Errorf("unknown draw request %q (known: offer, accept, decline)", req.What))
		return
	}
	if err := s.store.Update(r.Context(), rm.rec, ply); err != nil {
		writeError(w, http.StatusConflict, err)
		return
	}
	rm.broadcast()
	writeJSON(w, http.StatusOK, rm.view())
}

// watch sends a game's views over a WebSocket as it changes. Clients send
// nothing but pings; a larger message closes the connection.
func (s *Server) watch(w http.ResponseWriter, r *http.Request) {
	rm := s.roomOr404(w, r)
	if rm == nil {
		return
	}
	id, who := rm.rec.ID, client(r)
	s.mu.Lock()
	if s.conns[who] >= s.cfg.ConnsPerClient || s.gameConns[id] >= s.cfg.ConnsPerGame {
		s.mu.Unlock()
		writeError(w, http.StatusTooManyRequests, errors.New("too many connections"))
		return
	}
	s.conns[who]++
	s.gameConns[id]++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.conns[who]--
		s.gameConns[id]--
		s.mu.Unlock()
	}()
	// websocket.Accept checks that the Origin is this host.
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1024)
	ctx := conn.CloseRead(r.Context())
	ch := rm.subscribe()
	defer rm.unsubscribe(ch)
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.ctx.Done():
			conn.Close(websocket.StatusGoingAway, "server stopping")
			return
		case msg := <-ch:
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := conn.Write(wctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				return
			}
		}
	}
}
