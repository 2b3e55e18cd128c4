package clientfs

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"

	// modernc.org/sqlite: pure Go, so the binary stays static and
	// cgo-free (docs/sources.md has the choice and the measurements).
	_ "modernc.org/sqlite"
)

// MaxDBBytes caps the database (plus WAL) copied for one read.
const MaxDBBytes = 1 << 30

// ErrNoItem is returned when the database has no row for the key.
var ErrNoItem = errors.New("no such item")

// ReadItem returns the value of key in the ItemTable of a VS Code
// state.vscdb (CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT
// REPLACE, value BLOB)), read from a private snapshot:
//
//  1. the database and its -wal (VS Code runs it in WAL mode, so the
//     newest state may be only in the WAL) are copied into a fresh 0700
//     temporary folder; the -shm is not copied, SQLite rebuilds the
//     index from the WAL, so a stale or half-written index cannot mislead
//     the reader;
//  2. both files are stat'ed before and after the copy and the copy is
//     retried while they changed, so a checkpoint between the two copies
//     cannot pair an old database with a newer WAL;
//  3. only the copy is opened, read-only; it is removed afterwards.
//
// The client's files are only ever opened for reading, briefly, with no
// SQLite lock taken: a VS Code writing or checkpointing meanwhile is
// neither blocked nor able to see the reader. (Opening the live file with
// mode=ro would take shared locks and need the -shm; immutable=1 would
// skip the WAL and may read a page torn by a checkpoint.)
func ReadItem(dbPath, key string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "descriptorpin-vscdb-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	copyPath := filepath.Join(dir, "state.vscdb")
	if err := snapshot(dbPath, copyPath); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "query_only(1)")
	q.Add("_pragma", "busy_timeout(0)")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(copyPath)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dbPath, err)
	}
	defer db.Close()
	var n sql.NullInt64
	if err := db.QueryRow(`SELECT length(CAST(value AS BLOB)) FROM ItemTable WHERE key = ?`, key).Scan(&n); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("%s: %s: %w", dbPath, key, ErrNoItem)
		}
		return nil, &engine.InputError{File: dbPath, Msg: "cannot read the database: " + err.Error()}
	}
	if n.Int64 > engine.MaxFileBytes {
		return nil, &engine.InputError{File: dbPath, Path: key, Msg: fmt.Sprintf("value is larger than the %d MiB cap", engine.MaxFileBytes>>20)}
	}
	var v []byte
	if err := db.QueryRow(`SELECT CAST(value AS BLOB) FROM ItemTable WHERE key = ?`, key).Scan(&v); err != nil {
		return nil, &engine.InputError{File: dbPath, Msg: "cannot read the database: " + err.Error()}
	}
	return v, nil
}

type fileMark struct {
	exists bool
	size   int64
	mtime  time.Time
}

func mark(path string) (fileMark, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileMark{}, nil
	}
	if err != nil {
		return fileMark{}, err
	}
	return fileMark{true, fi.Size(), fi.ModTime()}, nil
}

// snapshot copies db and db-wal to dst and dst-wal, retrying while the
// sources change under the copy.
func snapshot(db, dst string) error {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
		}
		b1, err := mark(db)
		if err != nil {
			return err
		}
		if !b1.exists {
			return fmt.Errorf("%s: %w", db, os.ErrNotExist)
		}
		w1, err := mark(db + "-wal")
		if err != nil {
			return err
		}
		if b1.size+w1.size > MaxDBBytes {
			return &engine.InputError{File: db, Msg: fmt.Sprintf("database and WAL are larger than the %d MiB cap", MaxDBBytes>>20)}
		}
		if err := copyFile(db, dst); err != nil {
			return err
		}
		os.Remove(dst + "-wal")
		if w1.exists {
			if err := copyFile(db+"-wal", dst+"-wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
		b2, err := mark(db)
		if err != nil {
			return err
		}
		w2, err := mark(db + "-wal")
		if err != nil {
			return err
		}
		if b1 == b2 && w1 == w2 {
			return nil
		}
		lastErr = fmt.Errorf("%s: changed while being copied", db)
	}
	return lastErr
}

func copyFile(src, dst string) error {
	in, _, err := openRegular(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, io.LimitReader(in, MaxDBBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
