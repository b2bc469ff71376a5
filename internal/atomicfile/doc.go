// Package atomicfile replaces a file's content so that the file holds the
// old content or the new, never a part of either, whatever happens to the
// process or the machine.
//
// [Write] fills a temporary file in the same directory as the file (named
// .NAME.<random digits>SUFFIX), syncs it to stable storage, closes it,
// renames it over the file and syncs the directory, so that the rename
// itself survives a power loss, the order SQLite and etcd's write-ahead log
// document for their durability. On any failure before the rename the
// temporary file is removed and the file is left exactly as it was.
//
// A process killed mid-write leaves its temporary file behind;
// [RemoveLeftovers] removes those of given files, and nothing else, and a
// write with [Options].SweepLeftovers (as [Output] has) removes those of its
// own path before it begins. A writer holds a lock on its temporary file
// until it is renamed (where the system has file locks; the system drops
// it when the process dies), so neither ever takes a live writer's file for
// a leftover.
//
// A symbolic link at the path is followed, unless [Options].NoFollow
// refuses it ([ErrSymlink]). Errors name the path the caller gave, never
// the temporary file.
//
// Every file-system operation goes through an [FS]: [OS] in use, a recording
// one in tests (package atomicfiletest), which can see the order of the
// operations and fail any of them.
package atomicfile
