import Testing

@testable import VariantdCore

struct S3ConfigurationTests {
    private let keys = [
        "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    ]

    @Test func readsTheAWSVariables() throws {
        var environment = keys
        environment["AWS_DEFAULT_REGION"] = "eu-west-3"
        environment["AWS_SESSION_TOKEN"] = "token"
        let configuration = try S3Configuration(environment: environment)
        #expect(configuration.region == "eu-west-3")
        #expect(configuration.sessionToken == "token")
        #expect(configuration.endpoint == "https://s3.eu-west-3.amazonaws.com")
        #expect(configuration.addressing == .virtual)
        #expect(
            configuration.url(bucket: "bkt", key: "a b.jpg")
                == "https://bkt.s3.eu-west-3.amazonaws.com/a%20b.jpg")
        environment["AWS_REGION"] = "us-west-2"
        #expect(try S3Configuration(environment: environment).region == "us-west-2")
    }

    /// An endpoint URL carrying a user and password is refused, and the refusal, which goes to logs, does not
    /// repeat the password.
    @Test func anEndpointWithCredentialsIsRefusedWithoutEchoingThem() {
        var environment = keys
        environment["AWS_ENDPOINT_URL"] = "https://minio:hunter2-secret@store.example.test:9000"
        do {
            _ = try S3Configuration(environment: environment)
            Issue.record("an endpoint with credentials in it was taken")
        } catch {
            #expect(!"\(error)".contains("hunter2-secret"), "\(error)")
            #expect("\(error)".contains("store.example.test"), "\(error)")
        }
    }

    @Test func aCustomEndpointIsPathStyleUnlessToldOtherwise() throws {
        var environment = keys
        environment["AWS_ENDPOINT_URL"] = "http://127.0.0.1:8333"
        let configuration = try S3Configuration(environment: environment)
        #expect(configuration.addressing == .path)
        #expect(configuration.url(bucket: "bkt", key: "x/y.jpg") == "http://127.0.0.1:8333/bkt/x/y.jpg")
        #expect(
            configuration.url(bucket: "bkt", query: [("prefix", "a b/"), ("list-type", "2")])
                == "http://127.0.0.1:8333/bkt/?list-type=2&prefix=a%20b%2F")
        environment["AWS_ENDPOINT_URL_S3"] = "https://s3.example.test"
        environment["VARIANTD_S3_ADDRESSING"] = "virtual"
        let virtual = try S3Configuration(environment: environment)
        #expect(virtual.url(bucket: "bkt", key: "k") == "https://bkt.s3.example.test/k")
        environment["VARIANTD_S3_ADDRESSING"] = "sideways"
        #expect(throws: S3Error.self) { try S3Configuration(environment: environment) }
    }

    /// AWS's certificate for `*.s3.REGION.amazonaws.com` covers one label: `my.bucket.s3…` fails to verify, so
    /// every request to a bucket with dots failed. Over https such a bucket is addressed path-style, as the AWS
    /// SDKs do; over http, where no certificate is checked, it stays in the host.
    @Test func aBucketWithDotsIsAddressedPathStyleOverHTTPS() throws {
        let aws = try S3Configuration(environment: keys)
        #expect(aws.addressing == .virtual)
        #expect(
            aws.url(bucket: "my.bucket", key: "a.jpg") == "https://s3.us-east-1.amazonaws.com/my.bucket/a.jpg"
        )
        #expect(
            aws.url(bucket: "my.bucket", query: [("list-type", "2")])
                == "https://s3.us-east-1.amazonaws.com/my.bucket/?list-type=2")
        #expect(
            aws.url(bucket: "my-bucket", key: "a.jpg") == "https://my-bucket.s3.us-east-1.amazonaws.com/a.jpg"
        )
        var environment = keys
        environment["AWS_ENDPOINT_URL"] = "https://s3.example.test"
        environment["VARIANTD_S3_ADDRESSING"] = "virtual"
        #expect(
            try S3Configuration(environment: environment).url(bucket: "my.bucket", key: "k")
                == "https://s3.example.test/my.bucket/k")
        environment["AWS_ENDPOINT_URL"] = "http://s3.example.test:8333"
        #expect(
            try S3Configuration(environment: environment).url(bucket: "my.bucket", key: "k")
                == "http://my.bucket.s3.example.test:8333/k")
    }

    @Test func secretsStayOutOfDescriptionsAndErrors() throws {
        let configuration = try S3Configuration(environment: keys)
        #expect(!configuration.description.contains(keys["AWS_SECRET_ACCESS_KEY"]!))
        let error = try #require(throws: S3Error.self) {
            try S3Configuration(environment: ["AWS_SECRET_ACCESS_KEY": "hush-hush-secret"])
        }
        #expect(error.kind == .configuration)
        #expect(!error.description.contains("hush-hush-secret"))
    }

    @Test func encodesKeysAsSigV4Requires() {
        #expect(S3Encoding.path("a b/c+d/é~_-.x") == "a%20b/c%2Bd/%C3%A9~_-.x")
        #expect(S3Encoding.path("100%/名") == "100%25/%E5%90%8D")
        #expect(S3Encoding.query([("z", "1/2"), ("a", "=&")]) == "a=%3D%26&z=1%2F2")
        #expect(S3Encoding.listedKey("a+b%2Bc/%E5%90%8D%07") == "a b+c/名\u{7}")
        #expect(S3Encoding.listedKey("cut%4") == nil && S3Encoding.listedKey("%FF") == nil)
    }

    @Test func parsesLocations() throws {
        let location = try S3Location("s3://my-bucket/up/loads/")
        #expect(location.bucket == "my-bucket" && location.prefix == "up/loads")
        #expect(location.key("a/b.jpg") == "up/loads/a/b.jpg")
        #expect(location.relative("up/loads/a/b.jpg") == "a/b.jpg")
        #expect(location.listPrefix == "up/loads/")
        #expect(location.description == "s3://my-bucket/up/loads")
        let whole = try S3Location("s3://bkt")
        #expect(whole.prefix.isEmpty && whole.key("x") == "x" && whole.listPrefix.isEmpty)
        for bad in ["s3://", "s3://B", "s3://ab", "s3://-abc", "s3://a_b_c", "s3://bkt/../x", "/tmp/x"] {
            #expect(throws: S3Error.self, "\(bad)") { try S3Location(bad) }
        }
    }
}
