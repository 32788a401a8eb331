module github.com/muster-games/muster

go 1.26.8
