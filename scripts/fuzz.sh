#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for a bounded time.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET…]     targets: sniffer declaration thumbhash job events icc jpeg (default: all)
#
# Each Swift target compiles the pure-Swift sources it exercises straight into one fuzzer binary with swiftc (the
# only C library involved is libcrypto, for the spec keys of a job's outputs and long storage-event versions); `jpeg` compiles our C decoder shim with the toolchain's clang and
# links Debian's libjpeg-turbo. A run starts from the committed corpus Fuzz/corpus/<target>/ and grows a
# scratch corpus in .build/fuzz/<target>/corpus; with VARIANTD_FUZZ_KEEP=1, at the end the scratch inputs
# that reach new coverage are merged into Fuzz/corpus/<target>/ (commit them; short CI runs leave the tree
# alone). The whole libFuzzer log is kept in
# .build/fuzz/<target>/log. A crash writes a reproducer to .build/fuzz/<target>/ and fails the run — turn it
# into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
seconds=${1:-30}
shift || true
targets=("${@:-sniffer declaration thumbhash job events icc jpeg}")
read -r -a targets <<<"${targets[*]}"
flags=(-sanitize=fuzzer,address -parse-as-library -O -package-name variantd -enable-upcoming-feature InternalImportsByDefault
       -enable-upcoming-feature MemberImportVisibility -enable-upcoming-feature ExistentialAny)
V=Sources/Variants
# What tells a whole container from a cut one, which the sniffer and a declaration's watermark PNG both ask.
containers=($V/Probe/ContainerCheck.swift $V/Probe/PDFStructure.swift $V/Bindings/System/ByteSearch.swift
            $V/Probe/CRC32.swift $V/Decode/HEIFMeta.swift $V/Decode/HEIFOverlay.swift $V/Decode/HEIFReferenceRepair.swift)

# The pure part of the Variants module, for targets whose sources import it.
variants() {
  local out=$1
  swiftc "${flags[@]}" -module-name Variants -emit-module -emit-module-path "$out/Variants.swiftmodule" \
    -emit-library -static -o "$out/libVariants.a" $V/Errors/VariantsError.swift $V/Pipeline/ObjectRequest.swift \
    $V/Pipeline/StageTimings.swift $V/Pipeline/Stage.swift $V/Report/*.swift $V/Specs/*.swift \
    $V/Formats/*.swift $V/Sniff/MediaType.swift $V/Stores/RenditionFile.swift $V/Pipeline/RenditionOrder.swift \
    $V/Stores/RenditionStore.swift $V/Bindings/Crypto/SHA256.swift $V/Bindings/Crypto/LibCrypto.swift \
    "${containers[@]}" -I Sources/CCrypto
}

build() {
  local target=$1 out=.build/fuzz/$1
  mkdir -p "$out/corpus"
  case $target in
    sniffer)
      swiftc "${flags[@]}" -module-name FuzzSniffer $V/Sniff/*.swift $V/Formats/*.swift $V/Specs/OutputFormat.swift \
        "${containers[@]}" $V/Errors/VariantsError.swift Fuzz/SnifferFuzz.swift -o "$out/fuzz" ;;
    declaration)
      swiftc "${flags[@]}" -module-name FuzzDeclaration $V/Specs/*.swift $V/Formats/*.swift $V/Sniff/MediaType.swift \
        $V/Rendering/RenderPlan.swift $V/Rendering/RenderPlan+Watermark.swift "${containers[@]}" \
        $V/Bindings/Crypto/SHA256.swift \
        $V/Bindings/Crypto/LibCrypto.swift -I Sources/CCrypto -lcrypto \
        $V/Errors/VariantsError.swift Fuzz/BucketDeclarationFuzz.swift -o "$out/fuzz" ;;
    thumbhash)
      swiftc "${flags[@]}" -module-name FuzzThumbHash Sources/ThumbHash/*.swift Fuzz/ThumbHashFuzz.swift \
        -o "$out/fuzz" ;;
    job)
      variants "$out"
      swiftc "${flags[@]}" -module-name FuzzJob -I "$out" -I Sources/CCrypto -L "$out" -lVariants -lcrypto \
        Sources/VariantdCore/Pipeline/PipelineJob.swift Sources/VariantdCore/Wire/WireJSON.swift Fuzz/JobFuzz.swift \
        -o "$out/fuzz" ;;
    events)
      variants "$out"
      swiftc "${flags[@]}" -module-name FuzzEvents -I "$out" -I Sources/CCrypto -L "$out" -lVariants -lcrypto \
        Sources/VariantdCore/Events/{StorageEvent,FilerEvent,S3EventMessage,FormEncoding,StorageChange,StorageChange+Version}.swift \
        Sources/VariantdCore/Wire/WireJSON.swift Fuzz/StorageEventFuzz.swift -o "$out/fuzz" ;;
    icc)
      # The colour encoding a profile states is a HeifContainer.NCLX; an empty class stands in for the libheif one.
      printf 'final class HeifContainer {}\n' >"$out/HeifContainer.swift"
      swiftc "${flags[@]}" -module-name FuzzICC $V/Decode/ICCProfile.swift $V/Decode/ICCProfile+CodePoints.swift \
        $V/Decode/HeifContainer+NCLX.swift "$out/HeifContainer.swift" Fuzz/ICCProfileFuzz.swift -o "$out/fuzz" ;;
    jpeg)
      # C, not Swift: our libjpeg-turbo decoder shim (not the jpegli encoder beside it), against the system's libjpeg.
      # (ld.gold warns that it cannot export ASan's local symbols: harmless, so kept out of the output.)
      clang -g -O1 -fsanitize=fuzzer,address -I Sources/CJPEGShims/include Fuzz/JPEGDecodeFuzz.c \
        Sources/CJPEGShims/{decode,error,memory}.c -ljpeg -o "$out/fuzz" 2>"$out/build.log" \
        || { cat "$out/build.log"; exit 1; } ;;
    *) echo "fuzz: unknown target '$target'" >&2; exit 64 ;;
  esac
}

for target in "${targets[@]}"; do
  build "$target"
  out=.build/fuzz/$target kept=Fuzz/corpus/$target
  mkdir -p "$kept"
  echo "fuzz: $target for ${seconds}s"
  "$out/fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$out/" "$out/corpus" "$kept" >"$out/log" 2>&1 || { tail -n 30 "$out/log"; exit 1; }
  grep -E 'DONE|^Done [0-9]+ runs' "$out/log"
  if [ "${VARIANTD_FUZZ_KEEP:-0}" = 1 ]; then
    "$out/fuzz" -merge=1 -max_len=4096 "$kept" "$out/corpus" >"$out/merge.log" 2>&1
    echo "fuzz: $target corpus: $(find "$kept" -type f | wc -l) inputs"
  fi
done
