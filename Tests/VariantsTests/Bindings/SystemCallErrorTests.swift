import Testing

@testable import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call reads back as its call, its error number in the system's words, and its subject.
@Suite struct SystemCallErrorTests {
    @Test func describesTheCallTheSubjectAndTheErrorNumber() {
        let failure = SystemCallError("open", code: ENOENT, about: "/missing/file")
        #expect(failure.description == "open: /missing/file: No such file or directory (errno 2)")
        #expect(SystemCallError("pipe2", code: EMFILE).description == "pipe2: Too many open files (errno 24)")
    }

    @Test func readsErrnoLeftByTheCallThatFailed() {
        #expect(Glibc.close(-1) == -1)
        let failure = SystemCallError("close")
        #expect(failure.code == EBADF)
        #expect(BackendError(failure).description == "close: Bad file descriptor (errno 9)")
    }
}
