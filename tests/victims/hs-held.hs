-- hs-held: four mallocBytes blocks at the end of main, each held differently
-- by the Haskell heap, for the scan (leakscope run):
--   2000 bytes: owned by a ForeignPtr with finalizerFree, alive to the end
--               (the runtime frees it at exit: not live, not lost);
--   3000 bytes: in an IORef kept by a StablePtr never freed: still reachable;
--   4000 bytes: in a global IORef (a CAF) that main reads last (so no
--               collection drops the CAF before the runtime's last one):
--               still reachable;
--   1024 bytes: only in main's own variables, dead once main returns:
--               definitely lost.
-- Then one line with the four addresses.
module Main where

import Control.Monad (when)
import Data.IORef
import Foreign.ForeignPtr (newForeignPtr, withForeignPtr)
import Foreign.Marshal.Alloc (finalizerFree, mallocBytes)
import Foreign.Ptr (Ptr, nullPtr)
import Foreign.StablePtr (newStablePtr)
import System.Exit (exitFailure)
import System.IO.Unsafe (unsafePerformIO)

{-# NOINLINE global #-}
global :: IORef (Ptr ())
global = unsafePerformIO (newIORef nullPtr)

main :: IO ()
main = do
  f <- mallocBytes 2000 :: IO (Ptr ())
  fp <- newForeignPtr finalizerFree f
  s <- mallocBytes 3000 :: IO (Ptr ()) -- LINE:hs-stable
  r <- newIORef s
  _ <- newStablePtr r
  g <- mallocBytes 4000 :: IO (Ptr ()) -- LINE:hs-global
  writeIORef global g
  l <- mallocBytes 1024 :: IO (Ptr ()) -- LINE:hs-lost
  putStrLn ("held " ++ show (f, s, g, l))
  withForeignPtr fp (\_ -> return ())
  p <- readIORef global
  when (p == nullPtr) exitFailure
