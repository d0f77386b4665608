#if canImport(Glibc)
    import Glibc
#endif

/// An open file, pipe or terminal, by the number the kernel gave it: the one place its bytes are read and
/// written, each call made again when a signal interrupts it, so code above sees whole arrays, counts and
/// `BackendError`s, never a pointer or `errno`.
///
/// A plain value: copies name the same open file, which whoever opened it closes, once.
package struct FileDescriptor: Sendable, Equatable {
    package let rawValue: Int32

    package init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    package static let standardInput = FileDescriptor(STDIN_FILENO)
    package static let standardOutput = FileDescriptor(STDOUT_FILENO)
    package static let standardError = FileDescriptor(STDERR_FILENO)

    /// What a file is opened for. Every way is close-on-exec: a child started meanwhile must not inherit it.
    package enum Access {
        case reading
        /// Reading and writing, the file made (mode 644) when missing.
        case updating
        /// Writing a file that must not exist yet.
        case creatingNew
    }

    package static func open(_ path: String, _ access: Access) throws(BackendError) -> FileDescriptor {
        let descriptor =
            switch access {
            case .reading: Glibc.open(path, O_RDONLY | O_CLOEXEC)
            case .updating: Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            case .creatingNew: Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            }
        guard descriptor >= 0 else { throw .posix("open", path) }
        return FileDescriptor(descriptor)
    }

    package func close() {
        _ = Glibc.close(rawValue)
    }

    /// A second descriptor of the same open file.
    package func duplicate() throws(BackendError) -> FileDescriptor {
        let copy = dup(rawValue)
        guard copy >= 0 else { throw .posix("dup") }
        return FileDescriptor(copy)
    }

    /// Makes `other` a second descriptor of this open file, closing what it was before.
    package func duplicate(onto other: FileDescriptor) throws(BackendError) {
        guard dup2(rawValue, other.rawValue) >= 0 else { throw .posix("dup2") }
    }

    /// Writes return at once with what fits rather than wait for room (see `writeSome`).
    package func makeNonBlocking() {
        _ = fcntl(rawValue, F_SETFL, fcntl(rawValue, F_GETFL) | O_NONBLOCK)
    }

    package var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Takes the open file's exclusive lock (`flock`), without waiting; false when another open file holds it.
    package func tryLock() -> Bool {
        flock(rawValue, LOCK_EX | LOCK_NB) == 0
    }

    /// Flushes what was written to the disk.
    package func synchronize() throws(BackendError) {
        guard fsync(rawValue) == 0 else { throw .posix("fsync") }
    }

    package enum Readiness {
        case readable, writable
    }

    /// Waits at most `milliseconds` for the descriptor to be ready; false when the time passes or a signal
    /// comes first, so the caller looks at its deadline again. A hung-up pipe counts as ready: the read or
    /// write that follows says what became of it.
    package func wait(until readiness: Readiness, milliseconds: Int32) throws(BackendError) -> Bool {
        var poller = pollfd(
            fd: rawValue, events: Int16(readiness == .readable ? POLLIN : POLLOUT), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0 && errno != EINTR { throw .posix("poll") }
        return ready > 0
    }

    // MARK: - Reading

    /// Where a read puts its bytes: an array's own storage, so that they are never copied again.
    private typealias Buffer = UnsafeMutableBufferPointer<UInt8>

    /// What one read gives, at most `count` bytes: what is there, and none at the end of the input.
    package func read(upTo count: Int) throws(BackendError) -> [UInt8] {
        try array(count) { buffer throws(BackendError) in try readOnce(into: buffer, at: nil) }
    }

    /// `count` bytes that begin with `prefix` (read earlier) and go on with what is read now, straight into
    /// the array that holds them; throws when the input ends first.
    package func read(exactly count: Int, after prefix: ArraySlice<UInt8> = []) throws(BackendError)
        -> [UInt8]
    {
        let bytes = try array(count) { buffer throws(BackendError) in
            let kept = buffer.initialize(fromContentsOf: prefix)
            return try kept + readFully(into: UnsafeMutableBufferPointer(rebasing: buffer[kept...]), at: nil)
        }
        guard bytes.count == count else { throw Self.ended(after: bytes.count, of: count) }
        return bytes
    }

    /// The `count` bytes of the file from `offset`, read straight into the array that holds them; throws when
    /// the file ends first. The file position does not move, so copies of the descriptor can read at once.
    package func read(exactly count: Int, at offset: Int) throws(BackendError) -> [UInt8] {
        let bytes = try array(count) { buffer throws(BackendError) in
            try readFully(into: buffer, at: offset)
        }
        guard bytes.count == count else { throw Self.ended(after: bytes.count, of: count) }
        return bytes
    }

    /// Reads the `count` bytes of the file from `offset` into the start of `buffer` (which holds at least as
    /// many), as `read(exactly:at:)` does, for a caller that reads piece after piece into one array.
    package func read(into buffer: inout [UInt8], count: Int, at offset: Int) throws(BackendError) {
        let done = try buffer.withUnsafeMutableBufferPointer { bytes throws(BackendError) in
            try readFully(into: UnsafeMutableBufferPointer(rebasing: bytes[..<count]), at: offset)
        }
        guard done == count else { throw Self.ended(after: done, of: count) }
    }

    /// A new array of up to `count` bytes, as many as `fill` initializes (it returns how many).
    private func array(_ count: Int, _ fill: (Buffer) throws(BackendError) -> Int) throws(BackendError)
        -> [UInt8]
    {
        var failure: BackendError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            switch Result(catching: { () throws(BackendError) in try fill(buffer) }) {
            case .success(let count): initialized = count
            case .failure(let error): failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads until `buffer` is full or the input ends; how many bytes that was.
    private func readFully(into buffer: Buffer, at offset: Int?) throws(BackendError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = try readOnce(
                into: UnsafeMutableBufferPointer(rebasing: buffer[done...]), at: offset.map { $0 + done })
            guard count > 0 else { break }
            done += count
        }
        return done
    }

    /// One `read` (or `pread`, at `offset`) into `buffer`: how many bytes it gave, 0 at the end.
    private func readOnce(into buffer: Buffer, at offset: Int?) throws(BackendError) -> Int {
        while true {
            let count =
                if let offset {
                    pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset))
                } else {
                    Glibc.read(rawValue, buffer.baseAddress, buffer.count)
                }
            if count >= 0 { return count }
            if errno != EINTR { throw .posix(offset == nil ? "read" : "pread") }
        }
    }

    private static func ended(after done: Int, of count: Int) -> BackendError {
        BackendError(call: "read", message: "the input ended after \(done) of \(count) bytes")
    }

    // MARK: - Writing

    /// Writes all of `bytes`, in as many calls as the kernel takes.
    package func write(_ bytes: [UInt8]) throws(BackendError) {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = try writeSome(remaining)
            guard written > 0 else { throw BackendError(call: "write", message: "nothing was written") }
            remaining = remaining.dropFirst(written)
        }
    }

    /// One write of what `bytes` the kernel takes now: the count, 0 when a non-blocking descriptor has no room.
    package func writeSome(_ bytes: ArraySlice<UInt8>) throws(BackendError) -> Int {
        while true {
            let written = bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress, $0.count) }
            if written >= 0 { return written }
            if errno == EAGAIN { return 0 }
            if errno != EINTR { throw .posix("write") }
        }
    }
}
