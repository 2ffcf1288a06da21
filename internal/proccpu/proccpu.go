// Package proccpu reads the CPU time the current process has used: the
// transformation sandbox's workers report theirs, and the load bench's
// plain CPU load steers itself by its own.
package proccpu
