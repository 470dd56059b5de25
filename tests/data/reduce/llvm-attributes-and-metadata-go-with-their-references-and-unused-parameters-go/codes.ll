define dso_local void @BZ2_hbAssignCodes(i32* nocapture noundef writeonly %code, i8* nocapture noundef readonly %length, i32 noundef %minLen, i32 noundef %maxLen, i32 noundef %alphaSize) local_unnamed_addr #3 {
entry:
  %cmp.not25 = icmp sgt i32 %minLen, %maxLen
  br i1 %cmp.not25, label %for.end11, label %for.cond1.preheader.lr.ph

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp222 = icmp sgt i32 %alphaSize, 0
  %wide.trip.count = zext i32 %alphaSize to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.end
  %vec.028 = phi i32 [ 0, %for.cond1.preheader.lr.ph ], [ %shl, %for.end ]
  %n.026 = phi i32 [ %minLen, %for.cond1.preheader.lr.ph ], [ %inc10, %for.end ]
  br i1 %cmp222, label %for.body3, label %for.end

for.body3:                                        ; preds = %for.cond1.preheader, %for.inc
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.inc ], [ 0, %for.cond1.preheader ]
  %vec.123 = phi i32 [ %vec.2, %for.inc ], [ %vec.028, %for.cond1.preheader ]
  %arrayidx = getelementptr inbounds i8, i8* %length, i64 %indvars.iv
  %0 = load i8, i8* %arrayidx, align 1, !tbaa !19
  %conv = zext i8 %0 to i32
  %cmp4 = icmp eq i32 %n.026, %conv
  br i1 %cmp4, label %if.then, label %for.inc

if.then:                                          ; preds = %for.body3
  %arrayidx7 = getelementptr inbounds i32, i32* %code, i64 %indvars.iv
  store i32 %vec.123, i32* %arrayidx7, align 4, !tbaa !5
  %inc = add nsw i32 %vec.123, 1
  br label %for.inc

for.inc:                                          ; preds = %for.body3, %if.then
  %vec.2 = phi i32 [ %inc, %if.then ], [ %vec.123, %for.body3 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %for.body3, !llvm.loop !22

for.end:                                          ; preds = %for.inc, %for.cond1.preheader
  %vec.1.lcssa = phi i32 [ %vec.028, %for.cond1.preheader ], [ %vec.2, %for.inc ]
  %shl = shl i32 %vec.1.lcssa, 1
  %inc10 = add i32 %n.026, 1
  %exitcond30.not = icmp eq i32 %n.026, %maxLen
  br i1 %exitcond30.not, label %for.end11, label %for.cond1.preheader, !llvm.loop !23

for.end11:                                        ; preds = %for.end, %entry
  ret void
}

attributes #3 = { nofree norecurse nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.unroll.disable"}
!19 = !{!7, !7, i64 0}
!22 = distinct !{!22, !10, !11}
!23 = distinct !{!23, !10, !11}
