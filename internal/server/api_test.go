package server

import (
	"github.com/muster-games/muster/internal/identity"
	"github.com/muster-games/muster/internal/play"
)

// The API's answers as a client reads them: the tests decode the JSON the
// server sends, not the types it encodes from.

type createResponse struct {
	ID      string   `json:"id"`
	Seat    int      `json:"seat"`
	Secret  string   `json:"secret"`
	Secrets []string `json:"secrets"`
	Invite  string   `json:"invite"`
}

type meView = identity.View

type playerView struct {
	Username string `json:"username"`
	Ratings  map[string]struct {
		Rating      float64 `json:"rating"`
		RD          float64 `json:"rd"`
		Provisional bool    `json:"provisional"`
		Games       int     `json:"games"`
	} `json:"ratings"`
	Playing  []play.Summary `json:"playing"`
	Finished []play.Summary `json:"finished"`
	Me       bool           `json:"me"`
}

type challengeView struct {
	ID          string  `json:"id"`
	Creator     string  `json:"creator"`
	CreatorBot  bool    `json:"creator_bot"`
	Rating      float64 `json:"rating"`
	Target      string  `json:"target"`
	Side        string  `json:"side"`
	Game        string  `json:"game"`
	Spec        string  `json:"spec"`
	Rated       bool    `json:"rated"`
	Days        int     `json:"days"`
	Provisional bool    `json:"provisional"`
	Mine        bool    `json:"mine"`
	ForMe       bool    `json:"for_me"`
	Status      string  `json:"status"`
	Started     string  `json:"started"`
}

type lobbyView struct {
	Challenges []challengeView `json:"challenges"`
	Live       []struct {
		play.Summary
		play.Board
	} `json:"live"`
	Mine []play.Summary `json:"mine"`
	Me   meView         `json:"me"`
}

type leaderRow struct {
	Username string  `json:"username"`
	Rating   float64 `json:"rating"`
	RD       float64 `json:"rd"`
	Games    int     `json:"games"`
}

type chatRequest struct {
	Text   string `json:"text"`
	Secret string `json:"secret,omitempty"`
}

// The requests as a client sends them.

type createRequest struct {
	Game      string  `json:"game"`
	Ruleset   string  `json:"ruleset,omitempty"`
	Opponent  string  `json:"opponent,omitempty"`
	Level     string  `json:"level,omitempty"`
	Side      string  `json:"side,omitempty"`
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	Position  string  `json:"position,omitempty"`
}

type importRequest struct {
	createRequest
	Record string `json:"record"`
}

type actRequest struct {
	Secret string `json:"secret"`
	Action string `json:"action"`
	Ply    *int   `json:"ply"`
}

type secretRequest struct {
	Secret string `json:"secret"`
	What   string `json:"what,omitempty"`
}

type joinRequest struct {
	Token string `json:"token"`
}

type challengeRequest struct {
	Game      string  `json:"game"`
	Ruleset   string  `json:"ruleset,omitempty"`
	Minutes   float64 `json:"minutes,omitempty"`
	Increment float64 `json:"increment,omitempty"`
	Days      int     `json:"days,omitempty"`
	Rated     bool    `json:"rated,omitempty"`
	Side      string  `json:"side"`
	Opponent  string  `json:"opponent,omitempty"`
}

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}
