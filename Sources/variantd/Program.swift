import VariantdBench
import VariantdCore

/// The `variantd` command line: the product's subcommands and the benchmarks' (a target of their own), in
/// the order the overview lists them.
enum Program {
    static let tool = CommandLineTool(subcommands: [
        BatchCommand.self,
        ReportCommand.self,
        ServeCommand.self,
        WorkCommand.self,
        EnqueueCommand.self,
        ForgetCommand.self,
        UsageCommand.self,
        GCCommand.self,
        JobsCommand.self,
        BenchCommand.self,
        ChartCommand.self,
        ProbeCommand.self,
        RenderCommand.self,
        SignURLCommand.self,
        ThumbHashCommand.self,
        ThumbHashBenchCommand.self,
        QueueBenchCommand.self,
        QuarantineCommand.self,
        DecoderChildCommand.self,
        BenchWorkerCommand.self,
    ])
}
