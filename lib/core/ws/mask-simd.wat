;; WebSocket masking (RFC 6455 §5.3) with 128-bit SIMD: the source of `mask-simd-wasm.ts`.
;; Regenerate the bytes after any change: `npx tsx spec/support/assemble-mask-simd.ts`
;; (spec/core/ws/mask-simd-wasm.spec.ts fails while they differ).
;;
;; The module owns its memory and never sees the caller's arrays: `mask-simd.ts` copies a
;; payload in, calls `mask`, and copies the result out into a fresh array. It imports
;; nothing, so instantiating it is synchronous and cheap.
(module
  ;; One 64 KiB page: `mask-simd.ts` passes payloads through it in chunks of 16 KiB.
  (memory (export "memory") 1)

  ;; XORs memory[$at, $end) with the 32-bit word $key repeated, 64 bytes per iteration.
  ;; The caller puts payload byte 0 at a multiple of 16 (so the key is in phase, and the
  ;; loads are aligned) and may round $end up to the next multiple of 64 past it: the bytes
  ;; masked beyond the payload are scratch space, never copied out. Checking the bound once
  ;; per 64 bytes, with no tail loop, is what makes this faster than a byte-exact loop.
  (func (export "mask") (param $at i32) (param $end i32) (param $key i32)
    (local $k v128)
    ;; WebAssembly memory is little-endian: key byte 0 is the low byte of $key.
    (local.set $k (i32x4.splat (local.get $key)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (v128.store offset=0 (local.get $at)
          (v128.xor (v128.load offset=0 (local.get $at)) (local.get $k)))
        (v128.store offset=16 (local.get $at)
          (v128.xor (v128.load offset=16 (local.get $at)) (local.get $k)))
        (v128.store offset=32 (local.get $at)
          (v128.xor (v128.load offset=32 (local.get $at)) (local.get $k)))
        (v128.store offset=48 (local.get $at)
          (v128.xor (v128.load offset=48 (local.get $at)) (local.get $k)))
        (local.set $at (i32.add (local.get $at) (i32.const 64)))
        (br $next))))
)
