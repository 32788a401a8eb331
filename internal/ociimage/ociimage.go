// Package ociimage writes a container image as an OCI image layout (a
// folder: oci-layout, index.json and blobs/sha256/…) without a container
// engine: one layer holding a static binary, the TLS roots, a user that
// is not root and a data folder, and the image's configuration. A layout
// is what registries and engines take: skopeo copy oci:DIR docker://…,
// docker load or podman load of its tar. Read reads one back, so that a
// test runs the binary an image holds.
//
// Everything is written deterministically (fixed times, sorted entries):
// the same inputs give the same digests.
package ociimage

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The media types of the layout's blobs.
const (
	MediaManifest = "application/vnd.oci.image.manifest.v1+json"
	MediaConfig   = "application/vnd.oci.image.config.v1+json"
	MediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	MediaIndex    = "application/vnd.oci.image.index.v1+json"
)

// File is a file of the image's layer.
type File struct {
	// Path is the file's absolute path in the image.
	Path string
	// Data is its content; Mode its permissions (0644 where zero).
	Data []byte
	Mode int64
}

// Spec is what the image holds and how it runs.
type Spec struct {
	// Files are the layer's files; their folders are made.
	Files []File
	// Dirs are empty folders to make, owned by the user (a volume's).
	Dirs []string
	// UID and GID run the image (not 0: not root); Name is the user's
	// name in /etc/passwd.
	UID, GID int
	Name     string
	// Entrypoint, Cmd, Env ("K=V"), WorkingDir, Volumes, Ports ("8080/tcp")
	// and Labels are the image's configuration.
	Entrypoint, Cmd, Env []string
	WorkingDir           string
	Volumes, Ports       []string
	Labels               map[string]string
	// Arch is the binary's architecture (GOARCH names).
	Arch string
	// Created stamps the image and its files (zero: the Unix epoch).
	Created time.Time
	// Ref names the image in the layout's index (such as "muster:latest").
	Ref string
}

// Descriptor points to a blob.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Platform    *Platform         `json:"platform,omitempty"`
}

// Platform is a manifest's system.
type Platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

// Manifest is an image's manifest.
type Manifest struct {
	SchemaVersion int          `json:"schemaVersion"`
	MediaType     string       `json:"mediaType"`
	Config        Descriptor   `json:"config"`
	Layers        []Descriptor `json:"layers"`
}

// Index is the layout's index.json.
type Index struct {
	SchemaVersion int          `json:"schemaVersion"`
	MediaType     string       `json:"mediaType"`
	Manifests     []Descriptor `json:"manifests"`
}

// Config is the image's configuration, as engines read it.
type Config struct {
	Created      string `json:"created"`
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Config       struct {
		User         string              `json:"User"`
		Env          []string            `json:"Env,omitempty"`
		Entrypoint   []string            `json:"Entrypoint,omitempty"`
		Cmd          []string            `json:"Cmd,omitempty"`
		WorkingDir   string              `json:"WorkingDir,omitempty"`
		ExposedPorts map[string]struct{} `json:"ExposedPorts,omitempty"`
		Volumes      map[string]struct{} `json:"Volumes,omitempty"`
		Labels       map[string]string   `json:"Labels,omitempty"`
	} `json:"config"`
	RootFS struct {
		Type    string   `json:"type"`
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
	History []struct {
		Created   string `json:"created"`
		CreatedBy string `json:"created_by"`
	} `json:"history"`
}

// Write writes the image as an OCI image layout into dir (made, and
// empty), and returns its manifest's digest.
func Write(dir string, spec Spec) (string, error) {
	if spec.UID == 0 || spec.GID == 0 {
		return "", errors.New("ociimage: the image runs as a user that is not root: set UID and GID")
	}
	if err := os.MkdirAll(filepath.Join(dir, "blobs", "sha256"), 0o755); err != nil {
		return "", err
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 1 {
		return "", fmt.Errorf("ociimage: %s is not empty", dir)
	}
	raw, err := layer(spec)
	if err != nil {
		return "", err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.ModTime = spec.created()
	zw.Write(raw)
	zw.Close()
	layerDesc, err := putBlob(dir, MediaLayer, gz.Bytes())
	if err != nil {
		return "", err
	}
	var cfg Config
	cfg.Created = spec.created().UTC().Format(time.RFC3339)
	cfg.Architecture, cfg.OS = spec.Arch, "linux"
	cfg.Config.User = fmt.Sprintf("%d:%d", spec.UID, spec.GID)
	cfg.Config.Env, cfg.Config.Entrypoint, cfg.Config.Cmd, cfg.Config.WorkingDir, cfg.Config.Labels = spec.Env, spec.Entrypoint, spec.Cmd, spec.WorkingDir, spec.Labels
	cfg.Config.ExposedPorts, cfg.Config.Volumes = set(spec.Ports), set(spec.Volumes)
	cfg.RootFS.Type = "layers"
	cfg.RootFS.DiffIDs = []string{digest(raw)}
	cfg.History = append(cfg.History, struct {
		Created   string `json:"created"`
		CreatedBy string `json:"created_by"`
	}{cfg.Created, "muster-image"})
	cb, _ := json.Marshal(cfg)
	cfgDesc, err := putBlob(dir, MediaConfig, cb)
	if err != nil {
		return "", err
	}
	mb, _ := json.Marshal(Manifest{SchemaVersion: 2, MediaType: MediaManifest, Config: cfgDesc, Layers: []Descriptor{layerDesc}})
	manDesc, err := putBlob(dir, MediaManifest, mb)
	if err != nil {
		return "", err
	}
	manDesc.Platform = &Platform{Architecture: spec.Arch, OS: "linux"}
	if spec.Ref != "" {
		manDesc.Annotations = map[string]string{"org.opencontainers.image.ref.name": spec.Ref}
	}
	ib, _ := json.MarshalIndent(Index{SchemaVersion: 2, MediaType: MediaIndex, Manifests: []Descriptor{manDesc}}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "index.json"), ib, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644); err != nil {
		return "", err
	}
	return manDesc.Digest, nil
}

func (s Spec) created() time.Time {
	if s.Created.IsZero() {
		return time.Unix(0, 0)
	}
	return s.Created
}

func set(keys []string) map[string]struct{} {
	if len(keys) == 0 {
		return nil
	}
	m := map[string]struct{}{}
	for _, k := range keys {
		m[k] = struct{}{}
	}
	return m
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// putBlob writes a blob under its digest.
func putBlob(dir, media string, b []byte) (Descriptor, error) {
	d := digest(b)
	if err := os.WriteFile(filepath.Join(dir, "blobs", "sha256", strings.TrimPrefix(d, "sha256:")), b, 0o644); err != nil {
		return Descriptor{}, err
	}
	return Descriptor{MediaType: media, Digest: d, Size: int64(len(b))}, nil
}

// layer is the image's one layer, as an uncompressed tar: the folders,
// /etc/passwd and /etc/group naming the user, /tmp, the files and the
// user's folders.
func layer(spec Spec) ([]byte, error) {
	at := spec.created()
	files := append([]File{
		{Path: "/etc/passwd", Data: []byte(fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:/home/%s:/sbin/nologin\n", spec.Name, spec.UID, spec.GID, spec.Name, spec.Name))},
		{Path: "/etc/group", Data: []byte(fmt.Sprintf("root:x:0:\n%s:x:%d:\n", spec.Name, spec.GID))},
	}, spec.Files...)
	type entry struct {
		hdr  *tar.Header
		data []byte
	}
	entries := map[string]entry{}
	var dirOf func(p string)
	dirOf = func(p string) {
		if p == "/" || p == "." {
			return
		}
		if _, ok := entries[p]; ok {
			return
		}
		dirOf(path.Dir(p))
		entries[p] = entry{hdr: &tar.Header{Typeflag: tar.TypeDir, Name: strings.TrimPrefix(p, "/") + "/", Mode: 0o755, ModTime: at}}
	}
	for _, f := range files {
		if !path.IsAbs(f.Path) || path.Clean(f.Path) != f.Path {
			return nil, fmt.Errorf("ociimage: a file's path must be absolute and clean: %q", f.Path)
		}
		dirOf(path.Dir(f.Path))
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		entries[f.Path] = entry{hdr: &tar.Header{Typeflag: tar.TypeReg, Name: strings.TrimPrefix(f.Path, "/"), Mode: mode, Size: int64(len(f.Data)), ModTime: at}, data: f.Data}
	}
	dirOf("/tmp")
	entries["/tmp"].hdr.Mode = 0o1777
	for _, d := range append([]string{"/home/" + spec.Name}, spec.Dirs...) {
		dirOf(d)
		h := entries[d].hdr
		h.Mode, h.Uid, h.Gid = 0o750, spec.UID, spec.GID
	}
	var names []string
	for p := range entries {
		names = append(names, p)
	}
	sort.Strings(names)
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, p := range names {
		e := entries[p]
		e.hdr.Format = tar.FormatPAX
		if err := tw.WriteHeader(e.hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Image is an image read back from a layout.
type Image struct {
	Manifest Manifest
	Config   Config
	// Files are the layer's regular files by path, with their modes.
	Files map[string]File
	// Dirs are the layer's folders by path, with their owners.
	Dirs map[string]tar.Header
}

// Read reads the image of a layout with one manifest, checking every
// digest on the way.
func Read(dir string) (*Image, error) {
	var idx Index
	if err := readJSON(filepath.Join(dir, "index.json"), &idx); err != nil {
		return nil, err
	}
	if len(idx.Manifests) != 1 {
		return nil, fmt.Errorf("ociimage: %d manifests, want one", len(idx.Manifests))
	}
	var img Image
	if err := readBlobJSON(dir, idx.Manifests[0], &img.Manifest); err != nil {
		return nil, err
	}
	if err := readBlobJSON(dir, img.Manifest.Config, &img.Config); err != nil {
		return nil, err
	}
	img.Files, img.Dirs = map[string]File{}, map[string]tar.Header{}
	for i, l := range img.Manifest.Layers {
		gzb, err := readBlob(dir, l)
		if err != nil {
			return nil, err
		}
		zr, err := gzip.NewReader(bytes.NewReader(gzb))
		if err != nil {
			return nil, err
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			return nil, err
		}
		if i >= len(img.Config.RootFS.DiffIDs) || digest(raw) != img.Config.RootFS.DiffIDs[i] {
			return nil, fmt.Errorf("ociimage: layer %d's content does not match its diff_id", i)
		}
		tr := tar.NewReader(bytes.NewReader(raw))
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			p := "/" + strings.TrimSuffix(h.Name, "/")
			switch h.Typeflag {
			case tar.TypeDir:
				img.Dirs[p] = *h
			case tar.TypeReg:
				data, err := io.ReadAll(tr)
				if err != nil {
					return nil, err
				}
				img.Files[p] = File{Path: p, Data: data, Mode: h.Mode}
			}
		}
	}
	return &img, nil
}

func readJSON(file string, v any) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func readBlob(dir string, d Descriptor) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, "blobs", "sha256", strings.TrimPrefix(d.Digest, "sha256:")))
	if err != nil {
		return nil, err
	}
	if digest(b) != d.Digest || int64(len(b)) != d.Size {
		return nil, fmt.Errorf("ociimage: blob %s does not match its digest or size", d.Digest)
	}
	return b, nil
}

func readBlobJSON(dir string, d Descriptor, v any) error {
	b, err := readBlob(dir, d)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
