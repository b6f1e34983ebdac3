import HeraldCore
import Testing

/// `PostgresURL` reads a URL the way libpq's URI parser does, and its errors
/// never quote a password.
@Suite struct PostgresURLTests {
    @Test func theComponentsAreReadAndPercentDecoded() throws {
        let url = try PostgresURL(
            parsing:
                "postgres://her%61ld:p%40ss:w@db.example.com:5432/herald%5Fdb?sslmode=verify-full&sslrootcert=/etc/ca.pem"
        )
        #expect(url.user == "herald")
        #expect(url.password == "p@ss:w")
        #expect(url.hosts == ["db.example.com"])
        #expect(url.parameters == ["dbname": "herald_db", "sslmode": "verify-full", "sslrootcert": "/etc/ca.pem"])
        #expect(url.sslMode == "verify-full")

        let many = try PostgresURL(parsing: "postgresql://[::1]:5432,db2:5433/x?ssl=true")
        #expect(many.hosts == ["::1", "db2"] && many.user == nil && many.password == nil)
        #expect(many.sslMode == "require", "ssl=true is sslmode=require, as libpq reads it")

        let socket = try PostgresURL(parsing: "postgres:///herald?host=%2Fvar%2Frun%2Fpostgresql&password=s3cret")
        #expect(socket.hosts == ["/var/run/postgresql"])
        #expect(socket.password == "s3cret", "a ?password= is the password")
        #expect(socket.parameters["password"] == nil)
        #expect(try PostgresURL(parsing: "postgres://").hosts == [""])
    }

    @Test(arguments: [
        (
            "postgres://herald:pa%zz@db/herald",
            "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"
        ),
        (
            "postgres://herald:Sup3r%Secret@db/herald",
            "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"
        ),
        (
            "postgres://herald:trailing%@db/herald",
            "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"
        ),
        ("postgres://herald:Sup3r%00Secret@db/herald", "the password holds %00, which libpq refuses"),
        (
            "postgres://herald@db/herald?password=pa%zz",
            "the value of password holds a \"%\" not followed by two hex digits; write a \"%\" as %25"
        ),
        (
            "postgres://herald@db/h%zz",
            "the database name \"h%zz\" holds a \"%\" not followed by two hex digits; write a \"%\" as %25"
        ),
        ("postgres://herald@db:port/herald", "port \"port\" is not a number from 0 to 65535"),
        ("postgres://[::1/herald", "an IPv6 host address has no closing \"]\""),
        ("postgres://db/herald?sslmode", "query parameter \"sslmode\" has no \"=\""),
        ("postgres://db/herald?a=b=c", "query parameter \"a\" has a second \"=\""),
        ("mysql://db/herald", "expected a postgres:// or postgresql:// URL"),
    ])
    func whatLibpqRefusesIsRefusedWithoutThePassword(url: String, message: String) {
        #expect(throws: PostgresURLError(message)) { try PostgresURL(parsing: url) }
    }

    @Test func everyFormOfThePasswordIsFoundEvenInAURLThatCannotBeRead() {
        #expect(PostgresURL.passwordForms(in: "postgres://herald:pa%zz@db/herald") == ["pa%zz"])
        #expect(
            PostgresURL.passwordForms(in: "postgres://herald:p%40ss%zz@db/x?password=s%33cret") == [
                "p%40ss%zz", "s%33cret", "p@ss%zz", "s3cret",
            ])
        #expect(PostgresURL.passwordForms(in: "postgres://herald@db/x") == [])
        #expect(PostgresURL.passwordForms(in: "amqp://herald:s3cret@db/x") == [], "not a PostgreSQL URL")
    }
}
