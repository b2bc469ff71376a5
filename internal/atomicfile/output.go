package atomicfile

// Output are the options of the files the SDK's tools write for a user:
// exported workbooks and result files, mode 0644 before the umask, written
// beside their path as .NAME.<digits>.partial and renamed into place once
// whole. Every writer of such files, and every cleaner of what a killed
// writer left, takes these: a leftover is found by the suffix it was
// written with. A write first removes the leftovers of earlier writes of
// its path that were killed (SweepLeftovers).
func Output() *Options { return &Options{Perm: 0o644, Suffix: ".partial", SweepLeftovers: true} }
