-- hs-threads: 4 Haskell threads (run it with +RTS -N2) each make 20,000
-- pairs of a safe foreign call of malloc and free, with some list work
-- between them so that collections run while other threads are in their
-- calls; then each leaks one block of 5000 bytes from Main.worker by a
-- safe call, and main prints "done".
module Main where

import Control.Concurrent (forkIO)
import Control.Concurrent.MVar
import Control.Monad (forM, forM_, when)
import Foreign.C.Types (CSize (..))
import Foreign.Marshal.Alloc (free)
import Foreign.Ptr (Ptr)

foreign import ccall safe "stdlib.h malloc" mallocSafe :: CSize -> IO (Ptr ())

worker :: MVar () -> IO ()
worker done = do
  forM_ [1 .. 20000 :: Int] $ \i -> do
    p <- mallocSafe 48
    when (sum [1 .. i `mod` 50] < 0) $ print i
    free p
  _ <- mallocSafe 5000 -- LINE:threads-leak
  putMVar done ()

main :: IO ()
main = do
  dones <- forM [1 .. 4 :: Int] $ \_ -> do
    d <- newEmptyMVar
    _ <- forkIO (worker d)
    return d
  mapM_ takeMVar dones
  putStrLn "done"
