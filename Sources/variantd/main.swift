import VariantdCore

SignalStream.resetInheritedMask()
await Program.tool.main(Array(CommandLine.arguments.dropFirst())).endProcess()
