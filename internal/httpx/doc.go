// Package httpx holds what every part of the web app's HTTP side shares:
// errors that carry their status, JSON answers that log server errors
// instead of showing them, bounded JSON bodies, an adapter for handlers
// that return an error, the caller's address, and WebSocket connections
// counted against limits.
package httpx
