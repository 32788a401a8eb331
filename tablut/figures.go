package tablut

import "github.com/muster-games/muster/game"

// figures are the diagrams of the rules page under the default ruleset
// (linnaeus): the start, a capture, the castle as a partner in captures,
// the king's escape, and his capture away from and on the castle.
var figures = []game.Figure{
	{Title: "The start", Ruleset: "linnaeus",
		Caption: "Sixteen attackers (the dark Muscovites) in four groups at the edges; the king on the castle, the centre square, with his eight defenders (the light Swedes) round him. The attackers move first."},
	{Title: "A capture", Ruleset: "linnaeus",
		Caption:  "The attacker from d9 closes the trap on c3: the defender between two attackers on a rank or file is taken (crossed out). Moving between two enemies is safe.",
		Position: "/9/9/1tT6/9/4K4/9/9/9/3t5/ attackers", Actions: []string{"d9-d3xc3"}},
	{Title: "The empty castle takes part", Ruleset: "linnaeus",
		Caption:  "The empty castle is hostile: the attacker coming to c5 captures the defender on d5 against it, as if the castle were a second attacker.",
		Position: "/2t6/9/9/9/3T5/9/9/6K2/9/ attackers", Actions: []string{"c1-c5xd5"}},
	{Title: "The king escapes", Ruleset: "linnaeus",
		Caption:  "The king wins the game for the defenders as soon as he reaches any square of the edge.",
		Position: "/9/9/9/9/t3K3t/9/9/9/4t4/ defenders", Actions: []string{"e5-e1"}},
	{Title: "The king captured", Ruleset: "linnaeus",
		Caption:  "Away from the castle two attackers take the king, like any other piece: the attackers win.",
		Position: "/9/9/5tK2/9/9/9/9/7t1/9/ attackers", Actions: []string{"h8-h3"}},
	{Title: "The king captured on the castle", Ruleset: "linnaeus",
		Caption:  "On the castle the king needs attackers on all four sides; beside it, three and the castle.",
		Position: "/4t4/9/9/9/3tKt3/4t4/9/9/9/ attackers", Actions: []string{"e1-e4"}},
}
