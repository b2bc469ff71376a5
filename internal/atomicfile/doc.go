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
// [RemoveLeftovers] removes those of given files, and nothing else, once no
// other writer can be using them.
//
// Every file-system operation goes through an [FS]: [OS] in use, a recording
// one in tests (package atomicfiletest), which can see the order of the
// operations and fail any of them.
package atomicfile
