-- Leaky: a library module of the Haskell victims. leakBuffers n allocates
-- n rounds of three blocks, each from Haskell code in its own way, and
-- returns them all (the caller drops them: they leak):
--   1000 bytes  mallocBytes (base calls malloc by an unsafe foreign call);
--   2000 bytes  an unsafe foreign call of malloc made here;
--   3000 bytes  a safe foreign call of malloc made here (the runtime saves
--               the Haskell stack pointer and may let other threads run).
-- The loop is a tail call, so every round allocates from the same stack;
-- leakBuffers waits for it (to put the blocks in order): its own frame is
-- on the stack under the loop's.
module Leaky (leakBuffers) where

import Foreign.C.Types (CSize (..))
import Foreign.Marshal.Alloc (mallocBytes)
import Foreign.Ptr (Ptr)

foreign import ccall unsafe "stdlib.h malloc" mallocUnsafe :: CSize -> IO (Ptr ())
foreign import ccall safe "stdlib.h malloc" mallocSafe :: CSize -> IO (Ptr ())

{-# NOINLINE leakBuffers #-}
leakBuffers :: Int -> IO [Ptr ()]
leakBuffers n = do
  ps <- go n []
  return $! reverse ps
  where
    go :: Int -> [Ptr ()] -> IO [Ptr ()]
    go 0 acc = return acc
    go k acc = do
      a <- mallocBytes 1000 -- LINE:leaky-bytes
      b <- mallocUnsafe 2000 -- LINE:leaky-unsafe
      c <- mallocSafe 3000 -- LINE:leaky-safe
      go (k - 1) (a : b : c : acc)
