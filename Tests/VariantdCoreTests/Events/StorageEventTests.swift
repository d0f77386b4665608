import Foundation
import Testing
import Variants

@testable import VariantdCore

/// Webhook bodies read into changes: SeaweedFS filer events as SeaweedFS 4.48 posts them, S3 event messages
/// as MinIO does.
@Suite struct StorageEventTests {
    private static let created = #"""
        {"event_type":"create","key":"/buckets/pics/a b.jpg","message":{"new_entry":{"name":"a b.jpg","chunks":[{"size":5493,"modified_ts_ns":1796507893185995710,"e_tag":"cwH4kHedI9n5ApiMurUvpQ==","fid":{"volume_id":3,"file_key":1,"cookie":764819316}}],"attributes":{"file_size":5493,"mtime":1796507893,"file_mode":432,"crtime":1796507893,"mime":"image/jpeg","md5":"cwH4kHedI9n5ApiMurUvpQ==","inode":17513027830674397725,"ctime":-62135596800,"mtime_ns":186032484}},"delete_chunks":true,"new_parent_path":"/buckets/pics","signatures":[2106590813]}}
        """#
    private static let deleted = #"""
        {"event_type":"delete","key":"/buckets/pics/a b.jpg","message":{"old_entry":{"name":"a b.jpg","attributes":{"file_size":5493,"mtime":1796507893,"md5":"cwH4kHedI9n5ApiMurUvpQ==","mtime_ns":186032484}},"delete_chunks":true,"signatures":[2106590813]}}
        """#
    private static let directory = #"""
        {"event_type":"create","key":"/buckets/pics","message":{"new_entry":{"name":"pics","is_directory":true,"attributes":{"mtime":1796507893}},"new_parent_path":"/buckets","signatures":[2106590813]}}
        """#
    private static let system = #"""
        {"event_type":"create","key":"/buckets/.system/owners/.complete","message":{"new_entry":{"name":".complete","attributes":{"mtime":1796507880}},"new_parent_path":"/buckets/.system/owners"}}
        """#

    private func read(_ body: String) throws -> StorageEvent {
        try StorageEvent(body: Array(body.utf8))
    }

    private func refusal(_ body: String) -> VariantsError? {
        #expect(throws: VariantsError.self) { try StorageEvent(body: Array(body.utf8)) }
    }

    @Test func aFilerCreateIsAWriteOfItsBucketAndKey() throws {
        let event = try read(Self.created)
        #expect(
            event.changes == [
                StorageChange(
                    bucket: "pics", key: "a b.jpg", kind: .written,
                    version:
                        "written:md5=cwH4kHedI9n5ApiMurUvpQ==,mtime=1796507893,mtime_ns=186032484,size=5493")
            ])
        #expect(event.ignored == 0)
    }

    @Test func aFilerDeleteIsARemovalVersionedByTheOldEntry() throws {
        let event = try read(Self.deleted)
        #expect(
            event.changes == [
                StorageChange(
                    bucket: "pics", key: "a b.jpg", kind: .removed,
                    version: "deleted:mtime=1796507893,mtime_ns=186032484,md5=cwH4kHedI9n5ApiMurUvpQ==")
            ])
        #expect(event.ignored == 0)
    }

    @Test func aDirectoryAndSeaweedFSsOwnFilesAreCountedAsIgnored() throws {
        for body in [Self.directory, Self.system] {
            let event = try read(body)
            #expect(event.changes.isEmpty)
            #expect(event.ignored == 1)
        }
    }

    @Test func pathsOutsideTheBucketsAreIgnored() throws {
        for path in [
            "/etc/pics/a.jpg", "/buckets/pics", "/buckets/pics/", "/buckets//a.jpg", "/buckets/p/.system_x/a",
        ] {
            let event = try read(
                #"{"event_type":"update","key":"\#(path)","message":{"new_entry":{"name":"a.jpg"}}}"#)
            #expect(event == StorageEvent(changes: [], ignored: 1), "\(path)")
        }
    }

    @Test func aRenameRemovesTheOldKeyAndWritesTheNewOne() throws {
        let event = try read(
            #"""
            {"event_type":"rename","key":"/buckets/pics/old/a.jpg","message":{"old_entry":{"name":"a.jpg","attributes":{"mtime":5,"md5":"AA=="}},"new_entry":{"name":"b c.jpg","attributes":{"mtime":5,"md5":"AA==","file_size":3}},"new_parent_path":"/buckets/pics/new"}}
            """#)
        #expect(
            event.changes == [
                StorageChange(
                    bucket: "pics", key: "old/a.jpg", kind: .removed, version: "deleted:mtime=5,md5=AA=="),
                StorageChange(
                    bucket: "pics", key: "new/b c.jpg", kind: .written,
                    version: "written:md5=AA==,mtime=5,size=3"),
            ])
        #expect(event.ignored == 0)
    }

    @Test func aRenameOutOfTheBucketsKeepsOnlyTheRemoval() throws {
        let event = try read(
            #"""
            {"event_type":"rename","key":"/buckets/pics/a.jpg","message":{"new_entry":{"name":"a.jpg"},"new_parent_path":"/trash"}}
            """#)
        #expect(event.changes.map(\.kind) == [.removed])
        #expect(event.ignored == 1)
    }

    @Test func aDirectoryRenameIgnoresBothPaths() throws {
        let event = try read(
            #"""
            {"event_type":"rename","key":"/buckets/pics/old","message":{"old_entry":{"name":"old","is_directory":true},"new_entry":{"name":"new","is_directory":true},"new_parent_path":"/buckets/pics"}}
            """#)
        #expect(event == StorageEvent(changes: [], ignored: 2))
    }

    @Test func aWriteWithoutMD5IsVersionedByItsChunksETags() throws {
        let event = try read(
            #"""
            {"event_type":"update","key":"/buckets/pics/big.jpg","message":{"new_entry":{"name":"big.jpg","chunks":[{"e_tag":"one"},{"e_tag":"two"}],"attributes":{"mtime":"7","file_size":9}}}}
            """#)
        #expect(event.changes.map(\.version) == ["written:etag=one,etag=two,mtime=7,size=9"])
    }

    @Test func theSameDeleteDeliveredTwiceHasTheSameVersionAndAnotherWriteAnother() throws {
        #expect(try read(Self.deleted).changes == read(Self.deleted).changes)
        let rewritten = Self.created.replacingOccurrences(
            of: "\"mtime_ns\":186032484", with: "\"mtime_ns\":186032485")
        let first = try read(Self.created).changes[0]
        let second = try read(rewritten).changes[0]
        #expect(first.key == second.key && first.version != second.version)
        #expect(try read(Self.deleted).changes[0].version != first.version)
    }

    @Test func aFilerEventOfAnotherKindIsIgnored() throws {
        let event = try read(#"{"event_type":"chmod","key":"/buckets/pics/a.jpg","message":{}}"#)
        #expect(event == StorageEvent(changes: [], ignored: 1))
    }

    @Test func aFilerEventWithoutItsEntryIsRefused() {
        for body in [
            #"{"event_type":"create","key":"/buckets/pics/a.jpg","message":{}}"#,
            #"{"event_type":"delete","key":"/buckets/pics/a.jpg","message":{"new_entry":{"name":"a.jpg"}}}"#,
            #"{"event_type":"rename","key":"/buckets/pics/a.jpg","message":{"new_entry":{"name":"b.jpg"}}}"#,
            #"{"event_type":"create","message":{"new_entry":{}}}"#,
        ] {
            let error = refusal(body)
            #expect(error?.code == .invalidRequest, "\(body)")
            #expect(
                error?.message.hasPrefix("message") == true || error?.message == "key: missing", "\(error!)")
        }
    }

    private static let s3Body = #"""
        {"EventName":"s3:ObjectCreated:Put","Key":"pics/photos/a+b%C3%A9.jpg","Records":[
          {"eventVersion":"2.0","eventSource":"minio:s3","eventName":"s3:ObjectCreated:Put","s3":{"s3SchemaVersion":"1.0","bucket":{"name":"pics","arn":"arn:aws:s3:::pics"},"object":{"key":"photos/a+b%C3%A9.jpg","size":123,"eTag":"abc","contentType":"image/jpeg","sequencer":"0055AED6DCD90281E5"}}},
          {"eventName":"ObjectRemoved:Delete","s3":{"bucket":{"name":"pics"},"object":{"key":"old%2Bgone.jpg","sequencer":"0055AED6DCD90281E6","versionId":"v1"}}}
        ]}
        """#

    @Test func anS3MessageNamesEachRecordsObjectFormDecoded() throws {
        let event = try read(Self.s3Body)
        #expect(
            event.changes == [
                StorageChange(
                    bucket: "pics", key: "photos/a bé.jpg", kind: .written,
                    version: "written:etag=abc,sequencer=0055AED6DCD90281E5"),
                StorageChange(
                    bucket: "pics", key: "old+gone.jpg", kind: .removed,
                    version: "deleted:sequencer=0055AED6DCD90281E6,version=v1"),
            ])
        #expect(event.ignored == 0)
    }

    @Test func s3EventsThatChangeNothingAreCountedAsIgnored() throws {
        let event = try read(
            #"""
            {"Records":[{"eventName":"s3:ObjectAccessed:Get","s3":{"bucket":{"name":"pics"},"object":{"key":"a.jpg"}}},{"eventName":"s3:TestEvent"},{"eventName":"s3:ObjectCreated:Copy","s3":{"bucket":{"name":"pics"},"object":{"key":"b.jpg","eTag":"e"}}}]}
            """#)
        #expect(event.changes.map(\.key) == ["b.jpg"])
        #expect(event.ignored == 2)
    }

    @Test func anS3KeyThatIsNotFormEncodedUTF8RefusesTheBody() {
        for key in ["a%2", "a%zz.jpg", "a%C3.jpg", "%FF", ""] {
            let error = refusal(
                #"{"Records":[{"eventName":"s3:ObjectCreated:Put","s3":{"bucket":{"name":"pics"},"object":{"key":"\#(key)"}}}]}"#
            )
            #expect(error?.code == .invalidRequest, "\(key)")
            #expect(error?.message.hasPrefix("Records[0].s3.object.key:") == true, "\(error!)")
        }
    }

    @Test func anS3RecordWithoutItsObjectIsRefusedNamingTheField() {
        let error = refusal(
            #"{"Records":[{"eventName":"s3:ObjectRemoved:Delete","s3":{"bucket":{"name":"pics"}}}]}"#)
        #expect(error?.code == .invalidRequest)
        #expect(error?.message == "Records[0].s3.object: missing")
    }

    @Test func aBodyThatIsNotJSONOrNeitherShapeIsRefused() {
        for body in [
            "", "{", "not json", #"{"event_type":"create""#, "[]", "{}",
            #"{"Records":{}}"#, #"{"Records":[],"event_type":"create"}"#,
            #"{"event_type":1,"key":"/buckets/a/b","message":{}}"#,
        ] {
            let error = refusal(body)
            #expect(error?.code == .invalidRequest, "\(body)")
        }
        #expect(refusal("{").map(\.message) == "the storage event is not JSON")
        #expect(refusal(#"{"Records":{}}"#).map(\.message) == "Records: expected an array")
        #expect(refusal(#"{"event_type":1}"#).map(\.message) == "event_type: expected a string")
        #expect(refusal("{}").map { $0.message.hasPrefix("a storage event is a SeaweedFS") } == true)
    }

    /// The test event an S3-compatible server sends to a new target changes nothing and is not refused.
    @Test func aTestEventIsIgnored() throws {
        let event = try StorageEvent(
            body: Array(#"{"Service":"Amazon S3","Event":"s3:TestEvent","Bucket":"pics"}"#.utf8))
        #expect(event.changes.isEmpty && event.ignored == 1)
    }
}
