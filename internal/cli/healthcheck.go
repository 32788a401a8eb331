package cli

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

const healthcheckHelp = `Asks a server on this machine whether it answers: GET /healthz (or /readyz
with --ready, which a draining server or one without its database answers
503), and exits 0 if it answered 200 within --timeout, 1 otherwise (2 for a
flag it cannot read), saying why. It is what a container without a shell runs as its health check, as
the image's HEALTHCHECK does (Docker: HEALTHCHECK CMD ["muster",
"healthcheck"]).

The server is found where muster serve listens: --addr, else MUSTER_ADDR, as
serve reads it (":8080" is asked on 127.0.0.1:8080); over HTTPS where
MUSTER_TLS_CERT or MUSTER_ACME_DOMAIN is set, without checking the
certificate, since the server asked is this machine's own. --url names
another address whole.`

func runHealthcheck(env *Env, args []string) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "the address muster serve listens on (MUSTER_ADDR, as serve reads it)")
	url := fs.String("url", "", "the address to ask, whole (such as https://muster.example.org/healthz), instead of --addr's")
	ready := fs.Bool("ready", false, "ask /readyz (the database answers and the server is not draining) rather than /healthz (the process answers)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	if err := fromEnv(env, fs, nil); err != nil {
		return err
	}
	target := *url
	if target == "" {
		host, port, err := net.SplitHostPort(*addr)
		if err != nil {
			return fmt.Errorf("%w: --addr %q: %v", errUsage, *addr, err)
		}
		if host == "" || host == "0.0.0.0" {
			host = "127.0.0.1"
		} else if host == "::" {
			host = "::1"
		}
		scheme := "http"
		for _, k := range []string{"MUSTER_TLS_CERT", "MUSTER_ACME_DOMAIN"} {
			if v, ok := env.lookupEnv(k); ok && v != "" {
				scheme = "https"
			}
		}
		path := "/healthz"
		if *ready {
			path = "/readyz"
		}
		target = scheme + "://" + net.JoinHostPort(host, port) + path
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: *url == ""}}}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %s: %w", target, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 200))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s: %s", target, res.Status, body)
	}
	fmt.Fprintf(env.Stdout, "%s: %s\n", target, body)
	return nil
}
