import Testing

@testable import VariantdCore

/// Which PostgreSQL errors say the server behind the address cannot take writes now (a standby not yet
/// promoted, a server shutting down or starting, a broken connection), and which say to try again on the
/// same session: neither is ever a job's own failure.
struct PostgresSQLStateTests {
    @Test(arguments: ["25006", "57P01", "57P02", "57P03", "08000", "08006", "08001", "08P01"])
    func aServerThatCannotTakeWritesNow(state: String) {
        #expect(PostgresSQLState.meansServerUnavailable(state))
        #expect(!PostgresSQLState.isBusy(state))
    }

    @Test(arguments: ["40001", "40P01", "55P03"])
    func aSessionWorthAnotherTry(state: String) {
        #expect(PostgresSQLState.isBusy(state))
        #expect(!PostgresSQLState.meansServerUnavailable(state))
    }

    /// A statement the server rejects for itself (a syntax error, a constraint, a cancelled query, a query
    /// over its time) keeps the session.
    @Test(arguments: ["42601", "23505", "57014", "25P02", ""])
    func aStatementRefusedForItself(state: String) {
        #expect(!PostgresSQLState.meansServerUnavailable(state))
        #expect(!PostgresSQLState.isBusy(state))
    }
}
