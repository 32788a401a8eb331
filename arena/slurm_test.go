package arena

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlurmArrayJob runs docs/eval.md's Slurm array job, as it is written
// there, on a one-node Slurm cluster the test starts on this machine
// (munged, slurmctld and slurmd from Debian's slurm-wlm and munge, in a
// temporary directory): the four shards' games merged are the unsharded
// run's, `muster report` reads them, the report of the tasks' partials
// (muster report --partial) is the same report, and a task requeued after finishing
// a game resumes without playing it again. Without Slurm installed it is
// skipped, unless MUSTER_REQUIRE_SLURM is set (CI sets it).
func TestSlurmArrayJob(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster is not short")
	}
	c := startCluster(t)
	dir := t.TempDir()
	muster := filepath.Join(dir, "muster")
	build := exec.Command("go", "build", "-o", muster, "../cmd/muster")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building muster: %v\n%s", err, out)
	}
	script := filepath.Join(dir, "eval.sh")
	if err := os.WriteFile(script, []byte(slurmScript(t)), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"GAME=tablut", "RULESETS=linnaeus,walker", "AGENTS=random,random", "GAMES=8"}
	began := time.Now()
	job := c.submit(t, dir, args, script)
	c.wait(t, job, 4*time.Minute)
	t.Logf("the four shards took %v", time.Since(began).Round(time.Second))
	var merged bytes.Buffer
	for i := 0; i < 4; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "results", fmt.Sprintf("shard-%d.jsonl", i)))
		if err != nil {
			t.Fatalf("shard %d: %v (the job's log: %s)", i, err, c.jobLog(dir))
		}
		merged.Write(b)
	}
	// The same study, unsharded, on this machine.
	alone := filepath.Join(dir, "alone.jsonl")
	run := exec.Command(muster, "eval", "--game", "tablut", "--rulesets", "linnaeus,walker", "--agents", "random,random", "--games", "8", "--seed", "1", "--workers", "2", "--out", alone)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("the unsharded run: %v\n%s", err, out)
	}
	want, err := os.ReadFile(alone)
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, want, merged.Bytes(), 16)
	mergedPath := filepath.Join(dir, "results.jsonl")
	os.WriteFile(mergedPath, merged.Bytes(), 0o644)
	whole, err := exec.Command(muster, "report", mergedPath).CombinedOutput()
	if err != nil || !strings.Contains(string(whole), "tablut(linnaeus)") {
		t.Fatalf("muster report: %v\n%s", err, whole)
	}
	// Each task wrote its partial; merged, they are the whole's report.
	partials, _ := filepath.Glob(filepath.Join(dir, "results", "shard-*.partial.json"))
	if len(partials) != 4 {
		t.Fatalf("%d partials, want the four tasks' (the job's log: %s)", len(partials), c.jobLog(dir))
	}
	merged2, err := exec.Command(muster, append([]string{"report"}, partials...)...).CombinedOutput()
	if err != nil || string(merged2) != string(whole) {
		t.Fatalf("the report of the tasks' partials differs from the whole's: %v\n%s\nwant\n%s", err, merged2, whole)
	}

	// A task requeued once it has finished a game starts again from its
	// file and finishes the others, each once.
	os.RemoveAll(filepath.Join(dir, "results"))
	// Searches bounded by time, so that a game lasts long enough to be
	// caught in the middle (about 1 s here).
	args = []string{"GAME=tablut", "RULESETS=linnaeus", "AGENTS=alphabeta(time=15ms),alphabeta(time=15ms)", "GAMES=16"}
	job = c.submit(t, dir, args, script)
	shard0 := filepath.Join(dir, "results", "shard-0.jsonl")
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if b, _ := os.ReadFile(shard0); bytes.Count(b, []byte("\n")) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("task 0 finished no game in 3 minutes: %s", c.jobLog(dir))
		}
		time.Sleep(100 * time.Millisecond)
	}
	before, _ := os.ReadFile(shard0)
	if out, err := c.cmd("scontrol", "requeue", job+"_0").CombinedOutput(); err != nil {
		t.Fatalf("scontrol requeue: %v\n%s", err, out)
	}
	if n := bytes.Count(before, []byte("\n")); n >= 4 {
		t.Fatalf("task 0 had finished all its %d games before it was requeued: nothing to resume", n)
	}
	// Slurm holds a requeued job back for a while; let it begin now.
	waitFor(t, "the requeued task to be pending", func() bool {
		out, _ := c.cmd("squeue", "--noheader", "--array", "--jobs", job+"_0", "--format", "%T").CombinedOutput()
		return strings.Contains(string(out), "PENDING")
	})
	if out, err := c.cmd("scontrol", "update", "JobId="+job+"_0", "StartTime=now").CombinedOutput(); err != nil {
		t.Fatalf("scontrol update: %v\n%s", err, out)
	}
	requeued := time.Now()
	c.wait(t, job, 5*time.Minute)
	t.Logf("after the requeue the job took %v more", time.Since(requeued).Round(time.Second))
	after, err := os.ReadFile(shard0)
	if err != nil {
		t.Fatal(err)
	}
	lines := evalLines(t, after)
	seen := map[int]bool{}
	for _, l := range lines {
		if seen[l.Index] {
			t.Fatalf("game %d played twice by the requeued task", l.Index)
		}
		seen[l.Index] = true
	}
	if len(lines) != 4 {
		t.Fatalf("the requeued task's file holds %d games, want its 4 (before the requeue: %d)", len(lines), bytes.Count(before, []byte("\n")))
	}
	t.Logf("task 0 had finished %d games when it was requeued; its file holds %d, each once", bytes.Count(before, []byte("\n")), len(lines))
}

// slurmScript is the Slurm section's script of docs/eval.md.
func slurmScript(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/eval.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### Slurm: an array job")
	if !ok {
		t.Fatal("docs/eval.md has no Slurm section")
	}
	_, body, ok := strings.Cut(section, "```sh\n")
	script, _, ok2 := strings.Cut(body, "```")
	if !ok || !ok2 || !strings.Contains(script, "#SBATCH --array=0-3") {
		t.Fatalf("docs/eval.md's Slurm script not found or not of four shards:\n%s", section)
	}
	return script
}

// cluster is a one-node Slurm cluster in a temporary directory.
type cluster struct {
	dir  string
	conf string
}

// cmd is a Slurm command run against the cluster.
func (c *cluster) cmd(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	return cmd
}

// submit submits the script from dir with env added, and returns the job.
func (c *cluster) submit(t *testing.T, dir string, env []string, script string) string {
	t.Helper()
	// Submitted from dir, as a user submits it: the script goes to
	// $SLURM_SUBMIT_DIR.
	cmd := c.cmd("sbatch", "--parsable", "--output="+filepath.Join(dir, "slurm-%A_%a.out"), script)
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sbatch: %v\n%s", err, out)
	}
	return strings.TrimSpace(strings.Split(string(out), ";")[0])
}

// wait waits until none of the job's tasks is queued or running.
func (c *cluster) wait(t *testing.T, job string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		out, err := c.cmd("squeue", "--noheader", "--array", "--jobs", job, "--format", "%i %T").CombinedOutput()
		if err == nil && strings.TrimSpace(string(out)) == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s not done after %v: %s %v", job, limit, out, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// jobLog is what the job's tasks wrote, for a failure's message.
func (c *cluster) jobLog(dir string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "slurm-*.out"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "== %s\n%s", filepath.Base(f), data)
	}
	data, _ := os.ReadFile(filepath.Join(c.dir, "slurmd.log"))
	fmt.Fprintf(&b, "== slurmd.log (end)\n%s", tail(string(data), 2000))
	return b.String()
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// startCluster starts munged, slurmctld and slurmd, and stops them when
// the test ends.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	need := []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol"}
	for _, n := range need {
		if _, err := exec.LookPath(n); err != nil {
			for _, d := range []string{"/usr/sbin", "/usr/bin"} {
				if _, err := os.Stat(filepath.Join(d, n)); err == nil {
					os.Setenv("PATH", os.Getenv("PATH")+":"+d)
					break
				}
			}
		}
		if _, err := exec.LookPath(n); err != nil {
			if os.Getenv("MUSTER_REQUIRE_SLURM") != "" {
				t.Fatalf("%s is not installed, and MUSTER_REQUIRE_SLURM is set", n)
			}
			t.Skipf("%s is not installed (Debian: slurm-wlm, munge; set MUSTER_REQUIRE_SLURM to fail instead)", n)
		}
	}
	dir, err := os.MkdirTemp("", "muster-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	c := &cluster{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	for _, d := range []string{"munge", "state", "spool"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key := make([]byte, 1024)
	rand.Read(key)
	keyFile := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyFile, key, 0o400); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "munge", "socket")
	daemon(t, exec.Command("munged", "--foreground", "--force", "--socket="+socket, "--key-file="+keyFile,
		"--pid-file="+filepath.Join(dir, "munge", "pid"), "--log-file="+filepath.Join(dir, "munge", "log"), "--seed-file="+filepath.Join(dir, "munge", "seed")))
	waitFor(t, "munged's socket", func() bool { _, err := os.Stat(socket); return err == nil })
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	conf := fmt.Sprintf(`ClusterName=muster
SlurmctldHost=%[1]s(127.0.0.1)
SlurmUser=%[2]s
SlurmdUser=%[2]s
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
AuthInfo=socket=%[5]s
CredType=cred/munge
StateSaveLocation=%[6]s/state
SlurmdSpoolDir=%[6]s/spool
SlurmctldPidFile=%[6]s/slurmctld.pid
SlurmdPidFile=%[6]s/slurmd.pid
SlurmctldLogFile=%[6]s/slurmctld.log
SlurmdLogFile=%[6]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
JobRequeue=1
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, host, me.Username, freePort(t), freePort(t), socket, dir)
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	daemon(t, c.cmd("slurmctld", "-D", "-i"))
	daemon(t, c.cmd("slurmd", "-D", "-N", host))
	waitFor(t, "the node to be idle", func() bool {
		out, err := c.cmd("sinfo", "--noheader", "--format", "%T").CombinedOutput()
		return err == nil && strings.Contains(string(out), "idle")
	})
	return c
}

// daemon starts a daemon in the foreground, stopped when the test ends.
func daemon(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s said:\n%s", filepath.Base(cmd.Path), tail(out.String(), 2000))
		}
	})
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for !ok() {
		if ctx.Err() != nil {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
