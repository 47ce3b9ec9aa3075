-- ghc-pingpong - a concurrent GHC program whose eventlog is read by
-- bench/eventlog-ghc.sh: pairs of threads hand a counter to each other
-- through MVars (the scheduler writes "run thread, wake up thread, stop
-- thread" at every hand-over, as a concurrent server's eventlog has them)
-- while a map grows by one entry a round (what the heap profile's
-- censuses see grow).
--
-- Usage: ghc-pingpong ROUNDS PAIRS +RTS -N2 -l -hT -i0.02 -RTS
module Main (main) where

import Control.Concurrent
import Control.Monad
import Data.IORef
import qualified Data.Map.Strict as M
import System.Environment

-- n hand-overs between two threads, there and back.
pingPong :: Int -> IO ()
pingPong n = do
  there <- newEmptyMVar
  back <- newEmptyMVar
  done <- newEmptyMVar
  _ <- forkIO $ forM_ [1 .. n] $ \i -> putMVar there i >> takeMVar back
  _ <- forkIO $ do
    forM_ [1 .. n] $ \_ -> takeMVar there >>= putMVar back
    putMVar done ()
  takeMVar done

main :: IO ()
main = do
  [rounds, pairs] <- map read <$> getArgs
  kept <- newIORef M.empty
  forM_ [1 .. rounds] $ \r -> do
    dones <- forM [1 .. pairs] $ \_ -> do
      d <- newEmptyMVar
      _ <- forkIO (pingPong 2000 >> putMVar d ())
      return d
    mapM_ takeMVar dones
    modifyIORef' kept (M.insert r (show r ++ replicate 50 'x'))
  readIORef kept >>= print . M.size
