; ModuleID = 'huffman.c'
source_filename = "huffman.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind uwtable
define dso_local void @BZ2_hbCreateDecodeTables(i32* nocapture noundef %limit, i32* nocapture noundef %base, i32* nocapture noundef writeonly %perm, i8* nocapture noundef readonly %length, i32 noundef %minLen, i32 noundef %maxLen, i32 noundef %alphaSize) local_unnamed_addr #3 {
entry:
  %base162 = bitcast i32* %base to i8*
  %limit176 = bitcast i32* %limit to i8*
  %cmp.not144 = icmp sgt i32 %minLen, %maxLen
  br i1 %cmp.not144, label %for.cond12.preheader, label %for.cond1.preheader.lr.ph

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp2140 = icmp sgt i32 %alphaSize, 0
  %wide.trip.count = zext i32 %alphaSize to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.inc9
  %i.0146 = phi i32 [ %minLen, %for.cond1.preheader.lr.ph ], [ %inc10, %for.inc9 ]
  %pp.0145 = phi i32 [ 0, %for.cond1.preheader.lr.ph ], [ %pp.1.lcssa, %for.inc9 ]
  br i1 %cmp2140, label %for.body3, label %for.inc9

for.cond12.preheader:                             ; preds = %for.inc9, %entry
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(92) %base162, i8 0, i64 92, i1 false), !tbaa !5
  %cmp22149 = icmp sgt i32 %alphaSize, 0
  br i1 %cmp22149, label %for.body24.preheader, label %for.cond34.preheader

for.body3:                                        ; preds = %for.cond1.preheader, %for.inc
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.inc ], [ 0, %for.cond1.preheader ]
  %pp.1141 = phi i32 [ %pp.2, %for.inc ], [ %pp.0145, %for.cond1.preheader ]
  %arrayidx = getelementptr inbounds i8, i8* %length, i64 %indvars.iv
  %0 = load i8, i8* %arrayidx, align 1, !tbaa !19
  %conv = zext i8 %0 to i32
  %cmp4 = icmp eq i32 %i.0146, %conv
  br i1 %cmp4, label %if.then, label %for.inc

if.then:                                          ; preds = %for.body3
  %idxprom6 = sext i32 %pp.1141 to i64
  %arrayidx7 = getelementptr inbounds i32, i32* %perm, i64 %idxprom6
  %1 = trunc i64 %indvars.iv to i32
  store i32 %1, i32* %arrayidx7, align 4, !tbaa !5
  %inc = add nsw i32 %pp.1141, 1
  br label %for.inc

for.inc:                                          ; preds = %for.body3, %if.then
  %pp.2 = phi i32 [ %inc, %if.then ], [ %pp.1141, %for.body3 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.inc9, label %for.body3, !llvm.loop !24

for.inc9:                                         ; preds = %for.inc, %for.cond1.preheader
  %pp.1.lcssa = phi i32 [ %pp.0145, %for.cond1.preheader ], [ %pp.2, %for.inc ]
  %inc10 = add i32 %i.0146, 1
  %exitcond161.not = icmp eq i32 %i.0146, %maxLen
  br i1 %exitcond161.not, label %for.cond12.preheader, label %for.cond1.preheader, !llvm.loop !25

for.body24.preheader:                             ; preds = %for.cond12.preheader
  %wide.trip.count169 = zext i32 %alphaSize to i64
  br label %for.body24

for.cond34.preheader:                             ; preds = %for.body24, %for.cond12.preheader
  %load_initial = load i32, i32* %base, align 4
  br label %for.body37

for.body24:                                       ; preds = %for.body24.preheader, %for.body24
  %indvars.iv166 = phi i64 [ 0, %for.body24.preheader ], [ %indvars.iv.next167, %for.body24 ]
  %arrayidx26 = getelementptr inbounds i8, i8* %length, i64 %indvars.iv166
  %2 = load i8, i8* %arrayidx26, align 1, !tbaa !19
  %conv27 = zext i8 %2 to i64
  %add = add nuw nsw i64 %conv27, 1
  %arrayidx29 = getelementptr inbounds i32, i32* %base, i64 %add
  %3 = load i32, i32* %arrayidx29, align 4, !tbaa !5
  %inc30 = add nsw i32 %3, 1
  store i32 %inc30, i32* %arrayidx29, align 4, !tbaa !5
  %indvars.iv.next167 = add nuw nsw i64 %indvars.iv166, 1
  %exitcond170.not = icmp eq i64 %indvars.iv.next167, %wide.trip.count169
  br i1 %exitcond170.not, label %for.cond34.preheader, label %for.body24, !llvm.loop !26

for.body37:                                       ; preds = %for.cond34.preheader, %for.body37
  %store_forwarded = phi i32 [ %load_initial, %for.cond34.preheader ], [ %add42, %for.body37 ]
  %indvars.iv171 = phi i64 [ 1, %for.cond34.preheader ], [ %indvars.iv.next172, %for.body37 ]
  %arrayidx41 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv171
  %4 = load i32, i32* %arrayidx41, align 4, !tbaa !5
  %add42 = add nsw i32 %4, %store_forwarded
  store i32 %add42, i32* %arrayidx41, align 4, !tbaa !5
  %indvars.iv.next172 = add nuw nsw i64 %indvars.iv171, 1
  %exitcond175.not = icmp eq i64 %indvars.iv.next172, 23
  br i1 %exitcond175.not, label %for.body49.preheader, label %for.body37, !llvm.loop !27

for.body49.preheader:                             ; preds = %for.body37
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(92) %limit176, i8 0, i64 92, i1 false), !tbaa !5
  %cmp56.not153 = icmp sgt i32 %minLen, %maxLen
  br i1 %cmp56.not153, label %for.cond73.preheader, label %for.body58.preheader

for.body58.preheader:                             ; preds = %for.body49.preheader
  %5 = sext i32 %minLen to i64
  %6 = add i32 %maxLen, 1
  br label %for.body58

for.cond73.preheader:                             ; preds = %for.body58, %for.body49.preheader
  %cmp74.not.not157 = icmp slt i32 %minLen, %maxLen
  br i1 %cmp74.not.not157, label %for.body76.preheader, label %for.end89

for.body76.preheader:                             ; preds = %for.cond73.preheader
  %7 = sext i32 %minLen to i64
  %wide.trip.count187 = sext i32 %maxLen to i64
  br label %for.body76

for.body58:                                       ; preds = %for.body58.preheader, %for.body58
  %indvars.iv180 = phi i64 [ %5, %for.body58.preheader ], [ %indvars.iv.next181, %for.body58 ]
  %vec.0155 = phi i32 [ 0, %for.body58.preheader ], [ %shl, %for.body58 ]
  %indvars.iv.next181 = add nsw i64 %indvars.iv180, 1
  %arrayidx61 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv.next181
  %8 = load i32, i32* %arrayidx61, align 4, !tbaa !5
  %arrayidx63 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv180
  %9 = load i32, i32* %arrayidx63, align 4, !tbaa !5
  %sub64 = sub nsw i32 %8, %9
  %add65 = add nsw i32 %sub64, %vec.0155
  %sub66 = add nsw i32 %add65, -1
  %arrayidx68 = getelementptr inbounds i32, i32* %limit, i64 %indvars.iv180
  store i32 %sub66, i32* %arrayidx68, align 4, !tbaa !5
  %shl = shl i32 %add65, 1
  %lftr.wideiv = trunc i64 %indvars.iv.next181 to i32
  %exitcond183.not = icmp eq i32 %6, %lftr.wideiv
  br i1 %exitcond183.not, label %for.cond73.preheader, label %for.body58, !llvm.loop !28

for.body76:                                       ; preds = %for.body76.preheader, %for.body76
  %indvars.iv184 = phi i64 [ %7, %for.body76.preheader ], [ %indvars.iv.next185, %for.body76 ]
  %indvars.iv.next185 = add nsw i64 %indvars.iv184, 1
  %arrayidx79 = getelementptr inbounds i32, i32* %limit, i64 %indvars.iv184
  %10 = load i32, i32* %arrayidx79, align 4, !tbaa !5
  %add80 = shl i32 %10, 1
  %shl81 = add i32 %add80, 2
  %arrayidx83 = getelementptr inbounds i32, i32* %base, i64 %indvars.iv.next185
  %11 = load i32, i32* %arrayidx83, align 4, !tbaa !5
  %sub84 = sub i32 %shl81, %11
  store i32 %sub84, i32* %arrayidx83, align 4, !tbaa !5
  %exitcond188.not = icmp eq i64 %indvars.iv.next185, %wide.trip.count187
  br i1 %exitcond188.not, label %for.end89, label %for.body76, !llvm.loop !29

for.end89:                                        ; preds = %for.body76, %for.cond73.preheader
  ret void
}

; Function Attrs: argmemonly nofree nounwind willreturn writeonly
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #4

attributes #3 = { nofree norecurse nosync nounwind uwtable "frame-pointer"="none" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { argmemonly nofree nounwind willreturn writeonly }

!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"llvm.loop.unroll.disable"}
!19 = !{!7, !7, i64 0}
!24 = distinct !{!24, !10, !11}
!25 = distinct !{!25, !10, !11}
!26 = distinct !{!26, !10, !11}
!27 = distinct !{!27, !10, !11}
!28 = distinct !{!28, !10, !11}
!29 = distinct !{!29, !10, !11}
