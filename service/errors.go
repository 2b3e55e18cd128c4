package service

import "errors"

// ErrRuntime is wrapped by the errors the service fails with at run time
// (the watcher cannot start or stops, the state directory or the event
// log cannot be created): not a mistake in the config, so a service
// manager should restart the service. The CLI maps it to exit status 3.
var ErrRuntime = errors.New("runtime failure")

type runtimeError struct{ err error }

func (e *runtimeError) Error() string        { return e.err.Error() }
func (e *runtimeError) Unwrap() error        { return e.err }
func (e *runtimeError) Is(target error) bool { return target == ErrRuntime }

// Runtime marks err as a runtime failure (nil stays nil).
func Runtime(err error) error {
	if err == nil {
		return nil
	}
	return &runtimeError{err}
}
